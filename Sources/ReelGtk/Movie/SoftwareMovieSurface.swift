import CGtk
import Foundation
import ReelEngine

/// The movie surface where GL is software or missing (on X11; on Wayland where the subsurface
/// is off): a GtkDrawingArea that has libswscale convert each new picture once, straight to the
/// size it is shown at, and paints it with cairo (GTK's cairo renderer then puts it on screen
/// as it is). On a machine without a GPU this costs a fraction of drawing through a software
/// GL, which rasterises the window twice. On X11, while nothing is drawn over the picture, it
/// is put into the window past GTK instead (`X11DirectPut`, when `DirectPutChoice` says so).
/// Threading: main thread only.
@MainActor
final class SoftwareMovieSurface: PaintedMovieSurface {
    let widget: UnsafeMutablePointer<GtkWidget>
    var picture: VideoFrame?
    var rotation = 0
    var shape = PictureShape.plain
    var drew: (@MainActor (VideoFrame?) -> Void)?
    let painter = CairoPicturePainter()
    private var readBacks: [@MainActor (DrawnImage?) -> Void] = []
    private var direct: X11DirectPut?
    var picturesPutDirectly: Int { direct?.picturesPut ?? 0 }

    private final class Box {
        weak var surface: SoftwareMovieSurface?
        init(_ surface: SoftwareMovieSurface) { self.surface = surface }
    }

    /// `directPut`: the X server to put pictures into the window through, when nothing is over them.
    init(area: UnsafeMutablePointer<GtkWidget>, directPut x11: X11Display? = nil) {
        widget = area
        let box = Unmanaged.passRetained(Box(self)).toOpaque()
        gtk_drawing_area_set_draw_func(area.cast(), { _, cr, width, height, data in
            let box = Unmanaged<Box>.fromOpaque(data!).takeUnretainedValue()
            MainActor.assumeIsolated { box.surface?.draw(cr!, width: Int(width), height: Int(height)) }
        }, box, { data in Unmanaged<Box>.fromOpaque(data!).release() })
        if let x11 {
            let direct = X11DirectPut(area: area, painter: painter, x11: x11) { [unowned self] width, height in
                (picture, picture.map { PicturePlacement($0, streamDegrees: rotation, shape: shape, viewWidth: width, viewHeight: height) })
            }
            direct.handBack = { [weak self] in self.map { gtk_widget_queue_draw($0.widget) } }
            direct.drew = { [weak self] picture in self?.drew?(picture) }
            self.direct = direct
        }
    }

    func invalidate() {
        if direct?.take() == true { return }
        gtk_widget_queue_draw(widget)
    }

    /// Through GTK's drawing, which a read-back is made from (a direct put resumes after it).
    func readBack(_ done: @escaping @MainActor (DrawnImage?) -> Void) {
        readBacks.append(done)
        gtk_widget_queue_draw(widget)
    }

    /// Paints black, then the picture in its rectangle, then the subtitles over it; all in
    /// device pixels, so that a picture converted at its shown size is copied, not resampled.
    private func draw(_ cr: OpaquePointer, width: Int, height: Int) {
        let scale = max(1, Int(gtk_widget_get_scale_factor(widget)))
        cairo_save(cr)
        cairo_scale(cr, 1 / Double(scale), 1 / Double(scale))
        cairo_set_source_rgb(cr, 0, 0, 0)
        cairo_paint(cr)
        let placement = picture.map { PicturePlacement($0, streamDegrees: rotation, shape: shape,
                                                       viewWidth: width * scale, viewHeight: height * scale) }
        if let picture, let placement {
            painter.paint(picture, placed: placement, on: cr)
        }
        cairo_restore(cr)
        drew?(picture)
        // A read-back waits for a draw with a picture (none while a file opens).
        if !readBacks.isEmpty, let picture, let placement {
            let pending = readBacks
            readBacks.removeAll()
            let image = painter.readBack(picture, placement)
            for done in pending { done(image) }
        }
    }
}
