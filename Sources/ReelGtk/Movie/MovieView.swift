import CGtk
import Foundation
import ReelEngine

/// The movie surface: at each display refresh it asks the player which picture is due and has
/// its surface (GL, or libswscale and cairo where GL is software, see `VideoOutput`; on Wayland
/// into a subsurface of its own, see `SubsurfaceChoice`) draw it
/// only when it changed. While paused nothing ticks at all: the process is idle until
/// something (a seek, a step) invalidates the picture.
/// Threading: main thread only.
@MainActor
public final class MovieView {
    /// The widget that shows the pictures (a GtkGLArea or a GtkDrawingArea).
    public let area: UnsafeMutablePointer<GtkWidget>
    /// How pictures reach the screen here.
    public let output: VideoOutput
    private let surface: MovieSurface
    private let player: PlaybackController
    /// The subtitles over the picture of a media time, drawn at a size in pixels (the player's
    /// `subtitleImage`); nil draws none.
    public var subtitles: (@MainActor (_ time: Double, _ width: Int, _ height: Int) -> SubtitleImage?)? {
        didSet { surface.subtitles = subtitles }
    }
    /// The picture on screen now (nil before the first frame of a file).
    public private(set) var shown: VideoFrame? {
        didSet { surface.picture = shown }
    }
    private var tickID: guint = 0
    /// Called after a picture has been drawn for the first time.
    var pictureDrawn: (@MainActor (VideoFrame) -> Void)?
    /// Distinct pictures drawn so far (redraws of the same picture do not count).
    public private(set) var framesDrawn = 0
    /// Pictures put into the window past GTK's drawing so far (X11's direct put).
    public var picturesPutDirectly: Int { surface.picturesPutDirectly }
    /// The stream's display rotation, degrees clockwise: pictures are shown turned.
    public var rotation = 0 {
        didSet {
            guard rotation != oldValue else { return }
            surface.rotation = rotation
            surface.invalidate()
        }
    }
    /// How the person has shaped the picture: crop, aspect, turns, mirror, zoom, pan, fill.
    public var shape = PictureShape.plain {
        didSet {
            guard shape != oldValue else { return }
            surface.shape = shape
            surface.invalidate()
        }
    }
    /// The video equalizer, on both drawing paths.
    public var equalizer = Equalizer.neutral {
        didSet {
            guard equalizer != oldValue else { return }
            surface.equalizer = equalizer
            surface.invalidate()
        }
    }
    /// Called when the surface cannot draw (no GL context, shaders failing): the window says so.
    var failed: (@MainActor (String) -> Void)? {
        didSet { surface.failed = failed }
    }

    init(output: VideoOutput, glArea: UnsafeMutablePointer<GtkWidget>, drawingArea: UnsafeMutablePointer<GtkWidget>,
         player: PlaybackController) {
        self.output = output
        self.player = player
        let es = (try? output.gl.get())?.isES ?? false
        if output.path == .gl {
            surface = GLMovieSurface(area: glArea, es: es)
        } else if SubsurfaceChoice.current(for: output).isUsed, let connection = WaylandConnection.shared {
            surface = SubsurfaceMovieSurface(area: drawingArea, connection: connection)
        } else {
            let x11 = DirectPutChoice.current(for: output).isUsed ? X11Display.shared : nil
            surface = SoftwareMovieSurface(area: drawingArea, directPut: x11)
        }
        area = surface.widget
        surface.drew = { [weak self] picture in self?.drew(picture) }
    }

    // MARK: Pulling pictures

    /// Ticks with the display while playing; stops ticking when not, and then draws the
    /// picture due now once more: the last tick may have come before the last picture's time
    /// (play ended between two ticks, or a busy main thread missed some), and nothing else
    /// would draw it. Not after `clear()`: a file is opening, and what is due is not its own.
    var isPlaying = false {
        didSet {
            guard isPlaying != oldValue else { return }
            if isPlaying {
                startTicking()
            } else {
                stopTicking()
                if shown != nil { refresh() }
            }
        }
    }

    /// Pulls the picture due now and redraws if it changed (used when not ticking).
    func refresh() {
        pull(at: .now, refresh: 1.0 / 60)
    }

    private func pull(at time: HostTime, refresh: Double) {
        let frame = player.frame(for: time, refreshInterval: refresh)
        guard frame !== shown else { return }
        shown = frame
        surface.invalidate()
    }

    /// Draws again (the subtitles changed over the same picture).
    public func redraw() { surface.invalidate() }

    /// Forgets the picture (a new file is opening).
    func clear() {
        shown = nil
        surface.invalidate()
    }

    private final class TickBox {
        weak var view: MovieView?
        init(_ view: MovieView) { self.view = view }
    }

    private func startTicking() {
        guard tickID == 0 else { return }
        let box = Unmanaged.passRetained(TickBox(self)).toOpaque()
        tickID = gtk_widget_add_tick_callback(area, { _, clock, data in
            let box = Unmanaged<TickBox>.fromOpaque(data!).takeUnretainedValue()
            return MainActor.assumeIsolated { () -> gboolean in
                guard let view = box.view, let clock else { return reel_source_remove() }
                // The picture drawn now is seen at the next refresh: ask for that moment.
                let frameTime = gdk_frame_clock_get_frame_time(clock)
                var interval: gint64 = 0
                var presentation: gint64 = 0
                gdk_frame_clock_get_refresh_info(clock, frameTime, &interval, &presentation)
                if interval <= 0 { interval = 16_667 }
                let shownAt = max(presentation, frameTime) + interval
                view.pull(at: HostTime(nanoseconds: UInt64(max(0, shownAt)) * 1000), refresh: Double(interval) / 1e6)
                return reel_source_continue()
            }
        }, box, { data in Unmanaged<TickBox>.fromOpaque(data!).release() })
    }

    private func stopTicking() {
        guard tickID != 0 else { return }
        gtk_widget_remove_tick_callback(area, tickID)
        tickID = 0
    }

    // MARK: Drawing

    /// The last picture reported as drawn (held weakly: a new picture allocated where a freed
    /// one was must not pass for it, as an ObjectIdentifier would).
    private weak var drawnOnce: VideoFrame?

    private func drew(_ picture: VideoFrame?) {
        guard let picture, drawnOnce !== picture else { return }
        drawnOnce = picture
        framesDrawn += 1
        pictureDrawn?(picture)
    }

    /// Saves the picture exactly as the surface drew it (for checks against an outside
    /// converter, and for screenshots), once one is drawn. `done` gets nil, or why it failed.
    public func snapshot(to path: String, done: @escaping @MainActor (String?) -> Void) {
        surface.readBack { image in done(Self.save(image, to: path)) }
    }

    private static func save(_ image: DrawnImage?, to path: String) -> String? {
        guard let image else { return "the picture drawn could not be read" }
        let bytes = image.pixels.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
        defer { g_bytes_unref(bytes) }
        guard let texture = gdk_memory_texture_new(gint(image.width), gint(image.height), GDK_MEMORY_R8G8B8A8,
                                                   bytes, gsize(image.width * 4)) else { return "cannot make an image" }
        defer { g_object_unref(texture.raw.cast(to: GObject.self)) }
        return gdk_texture_save_to_png(texture, path) != 0 ? nil : "cannot write \(path)"
    }

    /// The rectangle of the view the picture covers, in widget coordinates (for the auxiliary
    /// slot): all of it that shows, when zoomed past the view's edges.
    public var pictureRect: (x: Double, y: Double, width: Double, height: Double) {
        let w = Double(gtk_widget_get_width(area)), h = Double(gtk_widget_get_height(area))
        guard let frame = shown ?? player.frame(for: .now, refreshInterval: 1.0 / 60) else { return (0, 0, w, h) }
        let r = PicturePlacement(frame, streamDegrees: rotation, shape: shape, viewWidth: Int(w), viewHeight: Int(h)).visible
        return (Double(r.x), Double(r.y), Double(r.width), Double(r.height))
    }
}
