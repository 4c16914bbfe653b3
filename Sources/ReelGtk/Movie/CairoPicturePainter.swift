import CGtk
import Foundation
import ReelEngine

/// The CPU path's drawing, shared by its two surfaces (`SoftwareMovieSurface` into GTK's
/// window, `SubsurfaceMovieSurface` into a Wayland buffer of its own): each new picture
/// converted once by libswscale or zimg, straight to the size it is shown at, then painted with
/// cairo, turned and mirrored, with the subtitles over it; and the picture area drawn again off
/// screen for a read-back.
/// Threading: main thread only.
@MainActor
final class CairoPicturePainter {
    var equalizer = Equalizer.neutral
    var subtitles: (@MainActor (_ time: Double, _ width: Int, _ height: Int) -> SubtitleImage?)?
    var failed: (@MainActor (String) -> Void)?
    private let scaler = FrameScaler()
    private let converted = ConvertedPicture()
    private var subtitleSurface: SubtitleSurface?

    /// Paints `picture` (and its subtitles) where `placement` puts it on `cr`, whose units are
    /// device pixels: the part it shows, converted at the size it is shown, then turned and
    /// mirrored by cairo (a copy at whole turns).
    func paint(_ picture: VideoFrame, placed placement: PicturePlacement, on cr: OpaquePointer) {
        let rect = placement.visible, turns = placement.turns
        guard rect.width > 0, rect.height > 0,
              let surface = image(of: picture, region: placement.source, rect: rect, quarterTurns: turns) else { return }
        cairo_save(cr)
        cairo_rectangle(cr, Double(rect.x), Double(rect.y), Double(rect.width), Double(rect.height))
        cairo_clip(cr)
        if turns == 0, !placement.flipped {
            cairo_set_source_surface(cr, surface, Double(rect.x), Double(rect.y))
        } else {
            // About the rectangle's centre: mirrored across the screen, after turning (cairo
            // applies the last transformation given first); converted at its unturned size.
            cairo_translate(cr, Double(rect.x) + Double(rect.width) / 2, Double(rect.y) + Double(rect.height) / 2)
            if placement.flipped { cairo_scale(cr, -1, 1) }
            cairo_rotate(cr, Double(turns) * .pi / 2)
            let w = Double(cairo_image_surface_get_width(surface)), h = Double(cairo_image_surface_get_height(surface))
            cairo_set_source_surface(cr, surface, -w / 2, -h / 2)
        }
        cairo_paint(cr)
        cairo_restore(cr)
        paintSubtitles(of: picture, at: rect, on: cr)
    }

    /// Converts the part of `picture` that `placement` shows straight into `pixels` (cairo's
    /// RGB24 rows, `bytesPerRow` apart, the view's top left corner first), without a copy:
    /// only for a placement neither turned nor mirrored. False when it could not.
    func convert(_ picture: VideoFrame, placed placement: PicturePlacement, into pixels: UnsafeMutableRawPointer,
                 bytesPerRow: Int) -> Bool {
        let rect = placement.visible
        guard placement.turns == 0, !placement.flipped, rect.width > 0, rect.height > 0 else { return false }
        do {
            try scaler.scale(picture, region: placement.source, equalizer: equalizer, width: rect.width, height: rect.height,
                             into: pixels + rect.y * bytesPerRow + rect.x * 4,
                             bytesPerRow: bytesPerRow)
            return true
        } catch {
            failed?(error.message)
            return false
        }
    }

    /// A whole view's pixels (cairo's RGB24 rows, `stride` apart; memory of a window system's
    /// own, for the ways around GTK's drawing): the picture converted straight into it where
    /// neither turned nor mirrored, through cairo where it is; the rest black; the subtitles
    /// over it. `blackAround` is the picture's rectangle whose surroundings are known black in
    /// these pixels already (nil: not known); returns what is true of them now.
    func fill(_ pixels: UnsafeMutableRawPointer, width: Int, height: Int, stride: Int, blackAround: VideoRect?,
              with picture: VideoFrame?, placed placement: PicturePlacement?) -> VideoRect? {
        guard let image = cairo_image_surface_create_for_data(pixels.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_RGB24,
                                                              Int32(width), Int32(height), Int32(stride)) else { return nil }
        defer { cairo_surface_destroy(image) }
        guard let cr = cairo_create(image) else { return nil }
        defer { cairo_destroy(cr) }
        if let picture, let placement, placement.turns == 0, !placement.flipped {
            let rect = placement.visible
            // The bars only where these pixels did not have them black already.
            if blackAround != rect {
                cairo_set_source_rgb(cr, 0, 0, 0)
                for bar in PictureSurroundings(of: rect, inWidth: width, height: height).bars {
                    cairo_rectangle(cr, Double(bar.x), Double(bar.y), Double(bar.width), Double(bar.height))
                }
                cairo_fill(cr)
                cairo_surface_flush(image)
            }
            if convert(picture, placed: placement, into: pixels, bytesPerRow: stride) {
                cairo_surface_mark_dirty(image)
                paintSubtitles(of: picture, at: rect, on: cr)
                cairo_surface_flush(image)
                return rect
            }
        }
        cairo_set_source_rgb(cr, 0, 0, 0)
        cairo_paint(cr)
        if let picture, let placement { paint(picture, placed: placement, on: cr) }
        cairo_surface_flush(image)
        return nil
    }

    /// The subtitles over `picture`'s time, drawn over `rect` on `cr` (device pixels).
    func paintSubtitles(of picture: VideoFrame, at rect: VideoRect, on cr: OpaquePointer) {
        guard let subtitles, let image = subtitles(picture.pts, rect.width, rect.height) else { return }
        if subtitleSurface?.id != image.id { subtitleSurface = SubtitleSurface(image) }
        subtitleSurface?.paint(on: cr, at: rect)
    }

    /// The `region` of `picture` converted to the size it is shown at (unturned); converted
    /// once per picture, region and size, however often it is painted.
    private func image(of picture: VideoFrame, region: SourceRegion, rect: VideoRect, quarterTurns turns: Int) -> OpaquePointer? {
        let width = turns % 2 == 1 ? rect.height : rect.width
        let height = turns % 2 == 1 ? rect.width : rect.height
        if converted.picture === picture, converted.width == width, converted.height == height, converted.region == region,
           converted.equalizer == equalizer {
            return converted.surface
        }
        guard let surface = converted.prepare(width: width, height: height) else {
            failed?("cannot allocate a \(width)×\(height) picture")
            return nil
        }
        cairo_surface_flush(surface)
        do {
            try scaler.scale(picture, region: region, equalizer: equalizer, width: width, height: height,
                             into: cairo_image_surface_get_data(surface),
                             bytesPerRow: Int(cairo_image_surface_get_stride(surface)))
        } catch {
            converted.picture = nil
            failed?(error.message)
            return nil
        }
        cairo_surface_mark_dirty(surface)
        converted.picture = picture
        converted.region = region
        converted.equalizer = equalizer
        return surface
    }

    /// The picture area as painted (picture and subtitles), drawn again off screen.
    func readBack(_ picture: VideoFrame, _ placement: PicturePlacement) -> DrawnImage? {
        let rect = placement.visible
        guard rect.width > 0, rect.height > 0,
              let target = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(rect.width), Int32(rect.height)) else { return nil }
        defer { cairo_surface_destroy(target) }
        let cr = cairo_create(target)
        defer { cairo_destroy(cr) }
        cairo_translate(cr, Double(-rect.x), Double(-rect.y))
        paint(picture, placed: placement, on: cr!)
        cairo_surface_flush(target)
        guard let data = cairo_image_surface_get_data(target) else { return nil }
        let stride = Int(cairo_image_surface_get_stride(target))
        var pixels = [UInt8](repeating: 255, count: rect.width * rect.height * 4)
        // cairo keeps native-endian 0xXXRRGGBB words; the image is RGBA bytes.
        for y in 0..<rect.height {
            let row = UnsafeRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)
            for x in 0..<rect.width {
                let word = row[x]
                let i = (y * rect.width + x) * 4
                pixels[i] = UInt8((word >> 16) & 0xff)
                pixels[i + 1] = UInt8((word >> 8) & 0xff)
                pixels[i + 2] = UInt8(word & 0xff)
            }
        }
        return DrawnImage(pixels: pixels, width: rect.width, height: rect.height)
    }
}

/// The last picture converted for drawing and the cairo image holding it, kept while the size
/// stays the same so that a new picture reuses its memory.
/// Threading: main thread only (owned by a `CairoPicturePainter`).
@MainActor
private final class ConvertedPicture {
    weak var picture: VideoFrame?
    /// The part of the picture converted.
    var region: SourceRegion?
    /// The equalizer it was converted with.
    var equalizer = Equalizer.neutral
    private(set) var surface: OpaquePointer?
    private(set) var width = 0, height = 0

    /// An image of the size, reused when it already is; nil when cairo cannot make one.
    func prepare(width: Int, height: Int) -> OpaquePointer? {
        if let surface, self.width == width, self.height == height { return surface }
        if let surface { cairo_surface_destroy(surface) }
        picture = nil
        // RGB24: opaque, so cairo copies it instead of blending.
        let made = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(width), Int32(height))
        guard let made, cairo_surface_status(made) == CAIRO_STATUS_SUCCESS else {
            if let made { cairo_surface_destroy(made) }
            surface = nil
            self.width = 0
            self.height = 0
            return nil
        }
        surface = made
        self.width = width
        self.height = height
        return made
    }

    isolated deinit { if let surface { cairo_surface_destroy(surface) } }
}

/// A surface of the CPU path: its equalizer, subtitles and failure report are its painter's,
/// which converts and paints for it.
/// Threading: main thread only.
@MainActor
protocol PaintedMovieSurface: MovieSurface {
    var painter: CairoPicturePainter { get }
}

extension PaintedMovieSurface {
    var equalizer: Equalizer {
        get { painter.equalizer }
        set { painter.equalizer = newValue }
    }
    var subtitles: (@MainActor (_ time: Double, _ width: Int, _ height: Int) -> SubtitleImage?)? {
        get { painter.subtitles }
        set { painter.subtitles = newValue }
    }
    var failed: (@MainActor (String) -> Void)? {
        get { painter.failed }
        set { painter.failed = newValue }
    }
}
