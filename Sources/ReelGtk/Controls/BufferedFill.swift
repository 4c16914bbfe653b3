import CGtk
import ReelEngine

/// What of streamed media is on disk, shown as the scrubber's fill level (GtkRange's own
/// "buffered up to here" shading): from the play position to the end of the cached stretch
/// that holds it. Bytes are mapped to time in proportion, close enough for a shading.
/// Threading: main thread only.
@MainActor
enum BufferedFill {
    /// The time up to which the media is cached without a gap from `position`, or nil when
    /// the position's stretch is not cached at all.
    nonisolated static func level(_ progress: DownloadProgress, position: Double, duration: Double) -> Double? {
        guard duration > 0 else { return nil }
        let at = position / duration
        // A little slack: the byte just under the play position may already have been read.
        guard let stretch = progress.fractions.first(where: { $0.lowerBound <= at + 0.002 && at <= $0.upperBound }) else {
            return nil
        }
        return min(duration, stretch.upperBound * duration)
    }

    static func show(_ progress: DownloadProgress?, on scrubber: UnsafeMutablePointer<GtkWidget>,
                     position: Double, duration: Double?) {
        guard let progress, let duration, let level = level(progress, position: position, duration: duration) else {
            clear(scrubber)
            return
        }
        gtk_range_set_show_fill_level(scrubber.cast(), 1)
        gtk_range_set_restrict_to_fill_level(scrubber.cast(), 0)
        gtk_range_set_fill_level(scrubber.cast(), level)
    }

    static func clear(_ scrubber: UnsafeMutablePointer<GtkWidget>) {
        gtk_range_set_show_fill_level(scrubber.cast(), 0)
    }
}
