import CGtk
import ReelEngine

/// What of streamed media is on disk, drawn over the scrubber's trough as light bars: every
/// cached stretch where it lies (after a seek far ahead, the part skipped shows as not
/// there). Bytes stand in for time, close enough for a shading of constant-rate media.
/// Threading: main thread only.
@MainActor
final class BufferedRanges {
    private let area: UnsafeMutablePointer<GtkWidget>
    private let scrubber: UnsafeMutablePointer<GtkWidget>
    private var fractions: [ClosedRange<Double>] = []
    /// Where times lie on the scrubber (its coordinates), as clicks and drags map them.
    var geometry: (@MainActor () -> ScrubberGeometry?)?

    init(area: UnsafeMutablePointer<GtkWidget>, scrubber: UnsafeMutablePointer<GtkWidget>) {
        self.area = area
        self.scrubber = scrubber
        let me = Unmanaged.passUnretained(self).toOpaque()
        gtk_drawing_area_set_draw_func(area.cast(), { _, cairo, _, _, data in
            guard let data, let cairo else { return }
            let address = Int(bitPattern: data)
            let context = Int(bitPattern: cairo)
            MainActor.assumeIsolated {
                let ranges = Unmanaged<BufferedRanges>.fromOpaque(UnsafeRawPointer(bitPattern: address)!).takeUnretainedValue()
                ranges.draw(OpaquePointer(bitPattern: context)!)
            }
        }, me, nil)
    }

    /// Shows the cached stretches of `progress` (nil, or nothing known: none).
    func show(_ progress: DownloadProgress?) {
        fractions = progress?.fractions ?? []
        gtk_widget_set_visible(area, fractions.isEmpty ? 0 : 1)
        gtk_widget_queue_draw(area)
    }

    func clear() { show(nil) }

    /// The bars in the scrubber's pixels: each stretch from where the slider stands for its
    /// start to where it stands for its end, at least a pixel wide so that a small cached
    /// piece still shows.
    nonisolated static func bars(_ fractions: [ClosedRange<Double>], on geometry: ScrubberGeometry) -> [(x: Double, width: Double)] {
        fractions.compactMap { range in
            let lower = min(max(range.lowerBound, 0), 1), upper = min(max(range.upperBound, 0), 1)
            guard upper > lower else { return nil }
            let x = geometry.x(atFraction: lower)
            return (x, max(1, geometry.x(atFraction: upper) - x))
        }
    }

    private func draw(_ cairo: OpaquePointer) {
        var trough = GdkRectangle()
        gtk_range_get_range_rect(scrubber.cast(), &trough)
        // The scrubber sits inside the overlay with its own margins: draw in its coordinates.
        var dx = 0.0, dy = 0.0
        gtk_widget_translate_coordinates(scrubber, area, 0, 0, &dx, &dy)
        let height = 4.0
        let y = dy + Double(trough.y) + (Double(trough.height) - height) / 2
        cairo_set_source_rgba(cairo, 1, 1, 1, 0.38)
        guard let geometry = geometry?() else { return }
        for bar in Self.bars(fractions, on: geometry) {
            cairo_rectangle(cairo, dx + bar.x, y, bar.width, height)
        }
        cairo_fill(cairo)
    }
}
