import CGtk
import CX11
import Foundation
import ReelEngine

/// The CPU path's way past GTK's drawing on X11, while nothing is drawn over the picture: each
/// new picture converted straight into memory shared with the X server (`SharedImage`, two in
/// turn) and put into the window where the movie widget lies (MIT-SHM, as mpv's x11 output
/// does), after GTK has painted its frame. GTK's cairo renderer on X11 would otherwise
/// allocate and clear a window-sized image, paint the picture into it and upload that again
/// for every picture: about a third of the process's time on a 1080p film.
///
/// Whenever anything lies over the picture (the controls, the header bar, a message, a toast:
/// `WidgetsOver`), the picture goes through GTK again, from the frame where that thing first
/// shows (checked before each frame is laid out and painted), so GTK draws it over the current
/// picture. Whenever GTK paints while pictures are put, the picture is put again after it: GTK
/// may have repainted part of the widget from the picture it last drew itself. On a composited
/// screen a window with its own size has rounded, see-through corners, which a rectangle put
/// there would fill: only fullscreen, maximised or tiled windows take puts there.
/// Threading: main thread only.
@MainActor
final class X11DirectPut {

    private let widget: UnsafeMutablePointer<GtkWidget>
    private let painter: CairoPicturePainter
    private let x11: X11Display
    /// The picture now, and how it is placed in a view of a size in device pixels.
    private let view: @MainActor (_ width: Int, _ height: Int) -> (picture: VideoFrame?, placement: PicturePlacement?)
    /// Draws the widget through GTK (a put is not possible now).
    var handBack: (@MainActor () -> Void)?
    var drew: (@MainActor (VideoFrame?) -> Void)?
    /// Pictures put so far (for `--report`).
    private(set) var picturesPut = 0
    /// Puts are being made (GTK's picture in the widget is not the current one).
    private(set) var isPutting = false

    private var target: Target?
    private let images: SharedImagePair
    /// A new picture (or change of shape) waits to be put after this frame's paint.
    private var pending = false
    /// GTK painted in this frame.
    private var gtkPainted = false
    private var frameClock: OpaquePointer?
    private var clockHandlers: [gulong] = []

    /// The window's X side, taken when the widget is realised.
    private struct Target {
        let window: Window
        let gc: GC
        let visual: UnsafeMutablePointer<Visual>
        let depth: Int32
        let surface: OpaquePointer
    }

    init(area: UnsafeMutablePointer<GtkWidget>, painter: CairoPicturePainter, x11: X11Display,
         view: @escaping @MainActor (_ width: Int, _ height: Int) -> (picture: VideoFrame?, placement: PicturePlacement?)) {
        widget = area
        self.painter = painter
        self.x11 = x11
        self.view = view
        images = SharedImagePair(x11)
        Signal.connect(area.raw, "realize") { [weak self] in self?.realize() }
        Signal.connect(area.raw, "unrealize") { [weak self] in self?.unrealize() }
        Signal.connect(area.raw, "unmap") { [weak self] in self?.stopPutting() }
        if gtk_widget_get_realized(area) != 0 { realize() }
    }

    /// A new picture or shape: true when it will be put (after this frame's paint); false when
    /// GTK is to draw it.
    func take() -> Bool {
        guard mayPut() else {
            isPutting = false
            return false
        }
        pending = true
        if let frameClock { gdk_frame_clock_request_phase(frameClock, GDK_FRAME_CLOCK_PHASE_AFTER_PAINT) }
        return true
    }

    // MARK: Life with the window

    private func realize() {
        guard let native = gtk_widget_get_native(widget), let surface = gtk_native_get_surface(native),
              let clock = gtk_widget_get_frame_clock(widget) else { return }
        let window = gdk_x11_surface_get_xid(surface)
        var attributes = XWindowAttributes()
        var gc: GC?
        let clean = x11.withoutErrors {
            if XGetWindowAttributes(x11.display, window, &attributes) != 0 { gc = XCreateGC(x11.display, window, 0, nil) }
        }
        guard clean, let gc, let visual = attributes.visual, Self.isCairoLayout(visual.pointee, depth: attributes.depth) else {
            if let gc { XFreeGC(x11.display, gc) }
            return
        }
        target = Target(window: window, gc: gc, visual: visual, depth: attributes.depth, surface: surface)
        frameClock = clock
        clockHandlers = [
            Signal.connect(clock.raw, "before-paint") { [weak self] in self?.beforePainting() },
            // After the tick callbacks: where a revealer's fade or the movie's own tick shows
            // something over the picture.
            Signal.connect(clock.raw, "update", after: true) { [weak self] in self?.handBackIfCovered() },
            Signal.connect(clock.raw, "paint") { [weak self] in self?.gtkPainted = true },
            Signal.connect(clock.raw, "after-paint") { [weak self] in self?.afterPainting() },
        ]
    }

    /// Before GDK's surface goes: the images and the graphics context go first.
    private func unrealize() {
        if let frameClock { for id in clockHandlers { Signal.disconnect(frameClock.raw, id) } }
        clockHandlers = []
        frameClock = nil
        stopPutting()
        images.destroyAll()
        if let target { XFreeGC(x11.display, target.gc) }
        target = nil
    }

    private func stopPutting() {
        isPutting = false
        pending = false
        images.forgetShown()
    }

    /// 24-bit TrueColor in 32-bit pixels with red, green and blue where cairo's RGB24 has them.
    private static func isCairoLayout(_ visual: Visual, depth: Int32) -> Bool {
        (depth == 24 || depth == 32) && visual.red_mask == 0xff0000 && visual.green_mask == 0xff00 && visual.blue_mask == 0xff
    }

    // MARK: When

    /// Nothing over the widget, the widget shown whole in its window, and the window's corners
    /// square where the picture may reach them.
    private func mayPut() -> Bool {
        guard let target, gtk_widget_get_mapped(widget) != 0, gtk_widget_get_width(widget) > 0,
              gtk_widget_get_height(widget) > 0 else { return false }
        let state = gdk_toplevel_get_state(target.surface)
        let filling = GDK_TOPLEVEL_STATE_FULLSCREEN.rawValue | GDK_TOPLEVEL_STATE_MAXIMIZED.rawValue | GDK_TOPLEVEL_STATE_TILED.rawValue
        guard DirectPutChoice.windowAllows(composited: gdk_display_is_composited(x11.gdkDisplay) != 0,
                                           filling: state.rawValue & filling != 0) else { return false }
        return !WidgetsOver.anything(over: widget)
    }

    private func beforePainting() {
        gtkPainted = false
        handBackIfCovered()
    }

    /// Something came over the picture since it was last put: GTK draws the current picture
    /// under it in the frame about to be painted.
    private func handBackIfCovered() {
        guard isPutting, !mayPut() else { return }
        stopPutting()
        handBack?()
    }

    private func afterPainting() {
        let painted = gtkPainted
        gtkPainted = false
        guard pending || (isPutting && painted) else { return }
        let isNew = pending
        pending = false
        guard mayPut(), let place = WidgetPlace(of: widget) else {
            // Came over the picture while GTK laid out or painted this frame: drawn again at
            // the next one, over the current picture.
            stopPutting()
            handBack?()
            return
        }
        put(at: place, convertingAgain: isNew)
    }

    // MARK: Putting

    private func put(at place: WidgetPlace, convertingAgain: Bool) {
        guard let target, place.pixelWidth > 0, place.pixelHeight > 0 else { return }
        let x = place.x * place.scale, y = place.y * place.scale
        if !convertingAgain, let shown = images.shown, shown.place == place {
            shown.image.put(on: target.window, gc: target.gc, x: x, y: y)
            x11.flush()
            return
        }
        guard let image = images.free(width: place.pixelWidth, height: place.pixelHeight,
                                      visual: target.visual, depth: target.depth) else {
            stopPutting()
            handBack?()
            return
        }
        let now = view(place.pixelWidth, place.pixelHeight)
        image.blackAround = painter.fill(image.pixels, width: image.width, height: image.height, stride: image.stride,
                                         blackAround: image.blackAround, with: now.picture, placed: now.placement)
        image.put(on: target.window, gc: target.gc, x: x, y: y)
        x11.flush()
        images.show(image, at: place)
        isPutting = true
        picturesPut += 1
        drew?(now.picture)
    }

    isolated deinit {
        if let target { XFreeGC(x11.display, target.gc) }
    }
}
