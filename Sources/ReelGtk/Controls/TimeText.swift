import Foundation

/// How time labels read (the preferences' options: hours always, frames, a minus sign).
/// Threading: a value type.
public struct TimeTextOptions: Sendable, Equatable {
    /// `0:01:05` rather than `1:05` even for short media.
    public var alwaysShowHours = false
    /// Timecode with frames, `H:MM:SS:FF`, at the stream's frame rate.
    public var showFrames = false
    /// `-1:05` for time remaining.
    public var remainingMinusSign = true

    public init(alwaysShowHours: Bool = false, showFrames: Bool = false, remainingMinusSign: Bool = true) {
        self.alwaysShowHours = alwaysShowHours
        self.showFrames = showFrames
        self.remainingMinusSign = remainingMinusSign
    }
}

/// Formats positions and durations for the time labels: `M:SS`, `H:MM:SS` (from an hour, or
/// always), or timecode `H:MM:SS:FF`. Elapsed time rounds down, remaining time rounds up, so
/// the two always add up to the duration on screen and remaining reaches 0:00 at the end.
/// Threading: pure functions.
public enum TimeText {
    /// Elapsed time (or a duration). `reference` (the media's duration) decides whether hours
    /// show, so that both labels keep one shape for the whole file.
    public static func elapsed(_ seconds: Double, reference: Double? = nil, frameRate: Double? = nil,
                               options: TimeTextOptions = .init()) -> String {
        format(seconds.isFinite ? max(0, seconds) : seconds, rounding: .down, reference: reference,
               frameRate: frameRate, options: options)
    }

    /// Time remaining from `position` to `duration`, with the minus sign when asked for.
    public static func remaining(position: Double, duration: Double, frameRate: Double? = nil,
                                 options: TimeTextOptions = .init()) -> String {
        let left = max(0, duration - max(0, position))
        let text = format(left, rounding: .up, reference: duration, frameRate: frameRate, options: options)
        return options.remainingMinusSign ? "-" + text : text
    }

    private enum Rounding { case down, up }

    private static func format(_ seconds: Double, rounding: Rounding, reference: Double?, frameRate: Double?,
                               options: TimeTextOptions) -> String {
        guard seconds.isFinite else { return "--:--" }
        if options.showFrames, let fps = frameRate, fps > 0 {
            // Timecode: whole frames, non-drop, at the nominal rate (29.97 counts 0…29).
            let nominal = Int(fps.rounded())
            let frames = rounding == .down ? Int((seconds * fps + 1e-6).rounded(.down))
                                           : Int((seconds * fps - 1e-6).rounded(.up))
            let totalSeconds = frames / max(nominal, 1)
            let ff = frames % max(nominal, 1)
            let h = totalSeconds / 3600, m = (totalSeconds / 60) % 60, s = totalSeconds % 60
            return String(format: "%d:%02d:%02d:%02d", h, m, s, ff)
        }
        let whole = rounding == .down ? Int((seconds + 1e-6).rounded(.down)) : Int((seconds - 1e-6).rounded(.up))
        let h = whole / 3600, m = (whole / 60) % 60, s = whole % 60
        let hours = options.alwaysShowHours || whole >= 3600 || (reference ?? 0) >= 3600
        return hours ? String(format: "%d:%02d:%02d", h, m, s) : String(format: "%d:%02d", m, s)
    }
}
