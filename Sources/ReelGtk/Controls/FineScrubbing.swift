/// Fine scrubbing, as iOS's players do it: while the scrubber is held, the farther the pointer
/// moves from it vertically, the less a pixel of horizontal motion moves the position (full,
/// half, quarter, eighth speed in bands of `bandHeight`). On a two-hour film one pixel of a
/// 1,000-pixel scrubber is seven seconds; an eighth of that finds a line of dialogue.
///
/// Changing band never moves the position: slowed, the position moves by the pointer's motion
/// from where it is, so the thumb leaves the pointer's x. Back at full speed it moves with the
/// pointer at the same offset until the pointer passes over the thumb (or the thumb stops at an
/// end and the pointer comes back across it); from then on it is under the pointer again.
/// Threading: a value type.
public struct FineScrubbing: Sendable, Equatable {
    public enum Speed: Int, Sendable, CaseIterable {
        case full, half, quarter, fine

        /// How much of the pointer's horizontal motion moves the position.
        public var factor: Double {
            switch self {
            case .full: 1
            case .half: 0.5
            case .quarter: 0.25
            case .fine: 0.125
            }
        }
    }

    /// The height of each band, from the scrubber's edge out: comfortably more than a hand
    /// wanders while dragging sideways, and four bands fit above the bar of a small window.
    public static let bandHeight = 50.0

    /// The speed for a pointer `distance` pixels above or below the scrubber (0 on it).
    public static func speed(atDistance distance: Double) -> Speed {
        let band = Int((max(0, distance) / bandHeight).rounded(.down))
        return Speed(rawValue: min(band, Speed.fine.rawValue)) ?? .fine
    }

    /// The position, in seconds.
    public private(set) var time: Double
    public private(set) var speed: Speed = .full
    /// Whether the thumb is under the pointer (the position is the time at the pointer's x).
    public private(set) var followsPointer: Bool
    private var lastX: Double
    private let geometry: ScrubberGeometry
    private let duration: Double

    /// A press at `x` on a scrubber laid out as `geometry`: the position under the pointer.
    public init(pressAtX x: Double, geometry: ScrubberGeometry, duration: Double) {
        self.geometry = geometry
        self.duration = max(duration, 0)
        time = geometry.time(atX: x, duration: duration)
        followsPointer = true
        lastX = x
    }

    /// Seconds a pixel of the trough stands for at full speed.
    private var secondsPerPixel: Double {
        duration / max(1, geometry.troughWidth - geometry.sliderLength)
    }

    /// The pointer moved to `x` (the scrubber's coordinates), `distance` pixels off the
    /// scrubber vertically; returns the new position.
    @discardableResult
    public mutating func move(toX x: Double, distance: Double) -> Double {
        speed = Self.speed(atDistance: distance)
        let underPointer = geometry.time(atX: x, duration: duration)
        if speed != .full {
            followsPointer = false
        } else if !followsPointer {
            // The pointer passing over the thumb (or reaching it) takes it along again.
            let before = geometry.time(atX: lastX, duration: duration) - time
            let after = underPointer - time
            if before == 0 || after == 0 || (before < 0) != (after < 0) { followsPointer = true }
        }
        if followsPointer {
            time = underPointer
        } else {
            time = min(max(time + (x - lastX) * secondsPerPixel * speed.factor, 0), duration)
        }
        lastX = x
        return time
    }
}
