import CGtk
import ReelEngine

/// A widget that draws the picture due now, letterboxed, turned by the stream's rotation, with
/// the subtitles over it. Two draw it: `GLMovieSurface` (shaders, where GL is real) and
/// `SoftwareMovieSurface` (libswscale and cairo, where GL is software or missing); `MovieView`
/// decides what is shown and when, and either surface draws it.
/// Threading: main thread only.
@MainActor
protocol MovieSurface: AnyObject {
    var widget: UnsafeMutablePointer<GtkWidget> { get }
    /// What to draw; set, then `invalidate()`.
    var picture: VideoFrame? { get set }
    /// The stream's display rotation, degrees clockwise (multiples of 90).
    var rotation: Int { get set }
    /// How the person has shaped the picture (crop, aspect, turns, mirror, zoom, pan, fill).
    var shape: PictureShape { get set }
    /// The video equalizer's contrast, brightness, gamma, saturation and hue.
    var equalizer: Equalizer { get set }
    /// The subtitles over a picture's time at a size in pixels; nil draws none.
    var subtitles: (@MainActor (_ time: Double, _ width: Int, _ height: Int) -> SubtitleImage?)? { get set }
    /// Called after each draw with the picture it drew.
    var drew: (@MainActor (VideoFrame?) -> Void)? { get set }
    /// Called when the surface cannot draw (no GL context, shaders failing).
    var failed: (@MainActor (String) -> Void)? { get set }
    /// Draws again at the next frame.
    func invalidate()
    /// The picture area exactly as the next draw with a picture leaves it (nil: it could not
    /// be read).
    func readBack(_ done: @escaping @MainActor (DrawnImage?) -> Void)
    /// Pictures put into the window past GTK's drawing (X11's direct put) so far.
    var picturesPutDirectly: Int { get }
}

extension MovieSurface {
    var picturesPutDirectly: Int { 0 }
}

/// Pixels as drawn on screen: RGBA rows, top row first, `width * 4` bytes each.
/// Threading: a value type.
struct DrawnImage {
    let pixels: [UInt8]
    let width: Int
    let height: Int
}
