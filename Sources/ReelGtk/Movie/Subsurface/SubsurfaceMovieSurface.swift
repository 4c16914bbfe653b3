import CGtk
import CWayland
import Foundation
import ReelEngine

/// The CPU path's movie surface on Wayland: each picture converted straight into shared memory
/// (`ShmBuffer`) shown on a `wl_subsurface` of the window's own surface, below it, where the
/// movie widget lies, and committed on its own (desynchronised). GTK's window is clear there
/// (the widget draws nothing; the window and the containers behind the picture are transparent
/// through the `reel-video-below` style class), so the compositor shows the picture through it
/// with the header bar, the controls and the popovers still drawn over it. GTK no longer clears
/// and composites its window's buffer for every picture (GTK 4.14's graphics offload and mpv's
/// wlshm output do the same). The buffer covers the widget: picture, black bars and subtitles.
/// Work happens after GTK paints each frame it was asked for, so that the widget's place is
/// the one just laid out.
/// Threading: main thread only.
@MainActor
final class SubsurfaceMovieSurface: PaintedMovieSurface {
    let widget: UnsafeMutablePointer<GtkWidget>
    var picture: VideoFrame?
    var rotation = 0
    var shape = PictureShape.plain
    var drew: (@MainActor (VideoFrame?) -> Void)?
    let painter = CairoPicturePainter()
    private let connection: WaylandConnection
    private let pool: ShmBufferPool
    private var readBacks: [@MainActor (DrawnImage?) -> Void] = []
    private var subsurface: Subsurface?
    /// A picture (or a change of shape) waits to be committed.
    private var isDirty = true
    private var frameClock: OpaquePointer?
    private var afterPaint: gulong = 0

    /// The style class that makes the widgets behind the picture transparent (data/style.css).
    static let transparentClass = "reel-video-below"

    init(area: UnsafeMutablePointer<GtkWidget>, connection: WaylandConnection) {
        widget = area
        self.connection = connection
        pool = ShmBufferPool(connection: connection)
        // Draws nothing, but through a cairo node, which GTK cannot diff: a queued draw then
        // damages the widget's area and GTK commits its surface, which is what applies the
        // subsurface's place and stacking (a widget without a draw function adds no node, and
        // GTK commits nothing for it).
        gtk_drawing_area_set_draw_func(area.cast(), { _, _, _, _, _ in }, nil, nil)
        Signal.connect(area.raw, "realize") { [weak self] in self?.realize() }
        Signal.connect(area.raw, "unrealize") { [weak self] in self?.unrealize() }
        Signal.connect(area.raw, "map") { [weak self] in self?.invalidate() }
        Signal.connect(area.raw, "unmap") { [weak self] in self?.hide() }
        if gtk_widget_get_realized(area) != 0 { realize() }
    }

    func invalidate() {
        isDirty = true
        if let frameClock { gdk_frame_clock_request_phase(frameClock, GDK_FRAME_CLOCK_PHASE_AFTER_PAINT) }
    }

    func readBack(_ done: @escaping @MainActor (DrawnImage?) -> Void) {
        readBacks.append(done)
        invalidate()
    }

    // MARK: Life with the window

    private func realize() {
        var ancestor: UnsafeMutablePointer<GtkWidget>? = gtk_widget_get_parent(widget)
        while let current = ancestor {
            gtk_widget_add_css_class(current, Self.transparentClass)
            ancestor = gtk_widget_get_parent(current)
        }
        guard let clock = gtk_widget_get_frame_clock(widget) else { return }
        frameClock = clock
        afterPaint = Signal.connect(clock.raw, "after-paint") { [weak self] in self?.afterPainting() }
        invalidate()
    }

    /// Before GDK's surface goes: the subsurface and its buffers go first.
    private func unrealize() {
        if let frameClock, afterPaint != 0 { Signal.disconnect(frameClock.raw, afterPaint) }
        frameClock = nil
        afterPaint = 0
        subsurface?.destroy()
        subsurface = nil
        pool.destroyAll()
        connection.flush()
    }

    /// The widget is no longer shown (the window hidden, or the view): neither is the picture.
    private func hide() {
        subsurface?.hide()
        connection.flush()
        isDirty = true
    }

    // MARK: Drawing

    private func afterPainting() {
        connection.dispatch()
        guard gtk_widget_get_mapped(widget) != 0, let place = WidgetPlace(of: widget) else { return }
        if isDirty || subsurface?.place != place { present(at: place) }
    }

    private func present(at place: WidgetPlace) {
        guard place.pixelWidth > 0, place.pixelHeight > 0 else { return }
        if subsurface == nil {
            guard let parent = Self.parentSurface(of: widget) else { return }
            subsurface = Subsurface(connection: connection, parent: parent)
        }
        guard let subsurface else { return }
        var buffer = pool.free(width: place.pixelWidth, height: place.pixelHeight)
        if buffer == nil {
            // All held by the compositor: what it has released but GDK has not read yet.
            connection.dispatch(read: true)
            buffer = pool.free(width: place.pixelWidth, height: place.pixelHeight)
        }
        guard let buffer else {
            // Tried again at the next frame.
            invalidate()
            return
        }
        let placement = picture.map { PicturePlacement($0, streamDegrees: rotation, shape: shape,
                                                       viewWidth: place.pixelWidth, viewHeight: place.pixelHeight) }
        fill(buffer, with: picture, placed: placement)
        let moved = subsurface.place != place
        subsurface.show(buffer, at: place)
        connection.flush()
        isDirty = false
        // Where a subsurface lies and its stacking take effect with its parent's next commit.
        if moved { gtk_widget_queue_draw(widget) }
        drew?(picture)
        // A read-back waits for a picture (none while a file opens).
        if !readBacks.isEmpty, let picture, let placement {
            let pending = readBacks
            readBacks.removeAll()
            let image = painter.readBack(picture, placement)
            for done in pending { done(image) }
        }
    }

    /// The buffer all of the widget (see `CairoPicturePainter.fill`).
    private func fill(_ buffer: ShmBuffer, with picture: VideoFrame?, placed placement: PicturePlacement?) {
        buffer.blackAround = painter.fill(buffer.pixels, width: buffer.width, height: buffer.height, stride: buffer.stride,
                                          blackAround: buffer.blackAround, with: picture, placed: placement)
    }

    /// The toplevel's own `wl_surface`, which the subsurface lies under.
    private static func parentSurface(of widget: UnsafeMutablePointer<GtkWidget>) -> OpaquePointer? {
        guard let native = gtk_widget_get_native(widget), let surface = gtk_native_get_surface(native) else { return nil }
        return gdk_wayland_surface_get_wl_surface(surface)
    }

    isolated deinit {
        subsurface?.destroy()
        pool.destroyAll()
    }
}
