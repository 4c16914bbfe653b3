/// Turns a pointer position on the scrubber into a media time, so that a click anywhere jumps
/// exactly there whatever GTK's `gtk-primary-button-warps-slider` says, and a drag follows the
/// pointer rather than the slider's own step logic.
/// Threading: a value type.
public struct ScrubberGeometry: Sendable, Equatable {
    /// The trough's start and length in widget coordinates, and the slider's length.
    public var troughX: Double
    public var troughWidth: Double
    public var sliderLength: Double

    public init(troughX: Double, troughWidth: Double, sliderLength: Double) {
        self.troughX = troughX
        self.troughWidth = troughWidth
        self.sliderLength = sliderLength
    }

    /// The time under `x` for media `duration` seconds long: the slider's centre can travel
    /// from half its length into the trough to half its length before the end.
    public func time(atX x: Double, duration: Double) -> Double {
        let travel = max(1, troughWidth - sliderLength)
        let fraction = (x - troughX - sliderLength / 2) / travel
        return min(max(fraction, 0), 1) * max(duration, 0)
    }

    /// Where the slider's centre stands for `fraction` (0...1) of the media: the inverse of
    /// `time(atX:duration:)`, for drawing on the trough at a time.
    public func x(atFraction fraction: Double) -> Double {
        troughX + sliderLength / 2 + min(max(fraction, 0), 1) * max(1, troughWidth - sliderLength)
    }
}
