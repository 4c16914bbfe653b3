import CGtk
import ReelEngine

/// One subtitle image as a cairo image, for the software movie surface: the engine's
/// premultiplied RGBA becomes cairo's premultiplied native-endian ARGB once per image.
/// Threading: main thread only.
@MainActor
final class SubtitleSurface {
    let id: Int
    private let surface: OpaquePointer?
    private let bounds: (x: Int, y: Int, width: Int, height: Int)

    init(_ image: SubtitleImage) {
        id = image.id
        let bounds = image.bounds
        self.bounds = bounds
        // Only the rectangle holding drawn pixels is kept and painted.
        guard bounds.width > 0, bounds.height > 0,
              let made = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(bounds.width), Int32(bounds.height)),
              cairo_surface_status(made) == CAIRO_STATUS_SUCCESS, let data = cairo_image_surface_get_data(made) else {
            surface = nil
            return
        }
        let stride = Int(cairo_image_surface_get_stride(made))
        image.pixels.withUnsafeBufferPointer { pixels in
            for y in 0..<bounds.height {
                let row = UnsafeMutableRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)
                for x in 0..<bounds.width {
                    let i = ((bounds.y + y) * image.width + bounds.x + x) * 4
                    row[x] = UInt32(pixels[i + 3]) << 24 | UInt32(pixels[i]) << 16 | UInt32(pixels[i + 1]) << 8 | UInt32(pixels[i + 2])
                }
            }
        }
        cairo_surface_mark_dirty(made)
        surface = made
    }

    isolated deinit { if let surface { cairo_surface_destroy(surface) } }

    /// Blends the subtitles over the picture's rectangle (device pixels, top-left origin).
    func paint(on cr: OpaquePointer, at rect: VideoRect) {
        guard let surface else { return }
        cairo_set_source_surface(cr, surface, Double(rect.x + bounds.x), Double(rect.y + bounds.y))
        cairo_paint(cr)
    }
}
