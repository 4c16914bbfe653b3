import CGtk
import ReelEngine

/// The movie surface where GL is real: a GtkGLArea whose renderer turns the decoded planes into
/// RGB in a shader (no conversion on the CPU), with the subtitles blended over them.
/// Threading: main thread only.
@MainActor
final class GLMovieSurface: MovieSurface {
    let widget: UnsafeMutablePointer<GtkWidget>
    var picture: VideoFrame?
    var rotation = 0
    var shape = PictureShape.plain
    var equalizer = Equalizer.neutral
    var subtitles: (@MainActor (_ time: Double, _ width: Int, _ height: Int) -> SubtitleImage?)?
    var drew: (@MainActor (VideoFrame?) -> Void)?
    var failed: (@MainActor (String) -> Void)?
    private var renderer: MovieRenderer?
    private var subtitleLayer: SubtitleLayer?
    private var pixelWidth = 0, pixelHeight = 0
    private var readBacks: [@MainActor (DrawnImage?) -> Void] = []

    private var glArea: UnsafeMutablePointer<GtkGLArea> { widget.cast() }

    /// `es`: the display's GL is OpenGL ES (the probe's context was), so the area must ask for
    /// ES too: GtkGLArea asks for desktop GL unless told, and where GTK allows only ES (some
    /// ARM machines, GDK_DEBUG=gl-gles) it then fails with "No GL API allowed".
    init(area: UnsafeMutablePointer<GtkWidget>, es: Bool = false) {
        widget = area
        if es { gtk_gl_area_set_use_es(area.cast(), 1) }
        Signal.connect(area.raw, "realize") { [weak self] in self?.realize() }
        Signal.connect(area.raw, "unrealize") { [weak self] in self?.unrealize() }
        Signal.connectIntInt(area.raw, "resize") { [weak self] w, h in
            self?.pixelWidth = w
            self?.pixelHeight = h
        }
        Signal.connectPointerReturning(area.raw, "render") { [weak self] _ in
            self?.render()
            return true
        }
    }

    func invalidate() { gtk_gl_area_queue_render(glArea) }

    func readBack(_ done: @escaping @MainActor (DrawnImage?) -> Void) {
        readBacks.append(done)
        invalidate()
    }

    private func realize() {
        gtk_gl_area_make_current(glArea)
        if let error = gtk_gl_area_get_error(glArea) {
            failed?("OpenGL is not available: \(String(cString: error.pointee.message))")
            return
        }
        let renderer = MovieRenderer()
        self.renderer = renderer
        subtitleLayer = SubtitleLayer()
        if let failure = renderer.failure { failed?(failure) }
    }

    private func unrealize() {
        gtk_gl_area_make_current(glArea)
        renderer?.release()
        renderer = nil
        subtitleLayer?.release()
        subtitleLayer = nil
    }

    private func render() {
        guard let renderer else { return }
        let scale = Int(gtk_widget_get_scale_factor(widget))
        let width = pixelWidth > 0 ? pixelWidth : Int(gtk_widget_get_width(widget)) * scale
        let height = pixelHeight > 0 ? pixelHeight : Int(gtk_widget_get_height(widget)) * scale
        renderer.draw(picture, width: width, height: height, rotation: rotation, shape: shape, equalizer: equalizer)
        if let picture, let subtitles, let layer = subtitleLayer,
           let image = subtitles(picture.pts, renderer.lastRect.width, renderer.lastRect.height) {
            layer.draw(image, in: renderer.lastRect)
        }
        if let failure = renderer.failure { failed?(failure) }
        drew?(picture)
        // A read-back waits for a draw with a picture: while a file opens the framebuffer holds
        // black, which is no picture of anything.
        if !readBacks.isEmpty, picture != nil {
            let pending = readBacks
            readBacks.removeAll()
            let image = renderer.readBack(viewHeight: height)
            for done in pending { done(image) }
        }
    }
}
