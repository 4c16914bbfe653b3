import CGtk
import ReelEngine

/// The A-B loop over the scrubber's trough: a tinted band from its start to its end, or, while
/// only the start is set, a mark where it lies (mpv's OSC marks the two ends the same way). A
/// warm yellow, apart from the accent of the played part and the white of what is cached.
/// Threading: main thread only.
@MainActor
final class LoopSpanBand {
    private let area: UnsafeMutablePointer<GtkWidget>
    private let scrubber: UnsafeMutablePointer<GtkWidget>
    private var fractions: (start: Double, end: Double?)?
    /// Where times lie on the scrubber (its coordinates), as clicks and drags map them.
    var geometry: (@MainActor () -> ScrubberGeometry?)?

    /// How wide the mark of a start alone is, in pixels.
    nonisolated static let markWidth = 3.0

    init(area: UnsafeMutablePointer<GtkWidget>, scrubber: UnsafeMutablePointer<GtkWidget>) {
        self.area = area
        self.scrubber = scrubber
        let me = Unmanaged.passUnretained(self).toOpaque()
        gtk_drawing_area_set_draw_func(area.cast(), { _, cairo, _, _, data in
            guard let data, let cairo else { return }
            let address = Int(bitPattern: data)
            let context = Int(bitPattern: cairo)
            MainActor.assumeIsolated {
                let band = Unmanaged<LoopSpanBand>.fromOpaque(UnsafeRawPointer(bitPattern: address)!).takeUnretainedValue()
                band.draw(OpaquePointer(bitPattern: context)!)
            }
        }, me, nil)
    }

    /// Shows `span` over media `duration` long (nil, or no length known: nothing).
    func show(_ span: LoopSpan?, duration: Double?) {
        var new: (start: Double, end: Double?)?
        if let span, let duration, duration > 0 { new = (span.start / duration, span.end.map { $0 / duration }) }
        // Told at every tick of the time: drawn again only when it moved.
        guard new?.start != fractions?.start || new?.end != fractions?.end || (new == nil) != (fractions == nil) else { return }
        fractions = new
        gtk_widget_set_visible(area, fractions == nil ? 0 : 1)
        gtk_widget_queue_draw(area)
    }

    /// The band in the scrubber's pixels: from where the slider stands for the start to where
    /// it stands for the end; a start alone is a mark centred on it.
    nonisolated static func band(start: Double, end: Double?, on geometry: ScrubberGeometry) -> (x: Double, width: Double) {
        let x = geometry.x(atFraction: start)
        guard let end else { return (x - markWidth / 2, markWidth) }
        return (x, max(1, geometry.x(atFraction: end) - x))
    }

    private func draw(_ cairo: OpaquePointer) {
        guard let fractions, let geometry = geometry?() else { return }
        var trough = GdkRectangle()
        gtk_range_get_range_rect(scrubber.cast(), &trough)
        var dx = 0.0, dy = 0.0
        gtk_widget_translate_coordinates(scrubber, area, 0, 0, &dx, &dy)
        // A band a little taller than the trough; the mark of a start alone taller still.
        let height = fractions.end == nil ? 14.0 : 8.0
        let y = dy + Double(trough.y) + (Double(trough.height) - height) / 2
        let band = Self.band(start: fractions.start, end: fractions.end, on: geometry)
        cairo_set_source_rgba(cairo, 0.96, 0.83, 0.18, fractions.end == nil ? 1 : 0.75)
        cairo_rectangle(cairo, dx + band.x, y, band.width, height)
        cairo_fill(cairo)
    }
}
