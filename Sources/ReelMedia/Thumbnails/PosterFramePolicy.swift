/// Which picture stands for a whole video in a file manager: the key frame a little way in,
/// passing over black, blank and fading frames (an opening on black, a title card on a flat
/// colour, a fade), as ffmpegthumbnailer and totem-video-thumbnailer do with their tests of a
/// frame's histogram at a few candidate times.
/// Threading: a value type.
public struct PosterFramePolicy: Sendable, Equatable {
    /// The candidate times, as fractions of the duration, tried in turn: the first a tenth of the
    /// way in (ffmpegthumbnailer's default), past most openings, the rest spread over the body.
    public var fractions: [Double] = [0.1, 0.25, 0.4, 0.55, 0.7, 0.85]
    /// Candidate times in seconds when the length is unknown (a raw stream): the start first, a
    /// key frame being there for certain.
    public var timesWithoutDuration: [Double] = [0, 2, 10, 30]
    /// A bright end (98th percentile of luma, 0 to 255) below this is black or a fade: BT.709's
    /// video black is 16, and a fade a sixth of its way up from black keeps nothing brighter.
    public var darkBrightEnd = 48.0
    /// A luma deviation below this is one flat colour, whatever its brightness.
    public var flatDeviation = 6.0
    /// One band of 32 holding more than this share of the pixels is a blank picture (a flat
    /// colour with a little noise or a caption).
    public var blankShare = 0.9

    public init() {}

    /// What a frame is, as far as a thumbnail is concerned.
    public enum Verdict: Sendable, Equatable {
        case shown
        case dark
        case blank
    }

    /// The times to try, in order, from the media's start, in seconds.
    public func candidateTimes(duration: Double?) -> [Double] {
        guard let duration, duration.isFinite, duration > 0 else { return timesWithoutDuration }
        return fractions.map { $0 * duration }
    }

    public func verdict(_ levels: PictureLevels) -> Verdict {
        if levels.brightEnd < darkBrightEnd { return .dark }
        if levels.deviation < flatDeviation || levels.dominantShare > blankShare { return .blank }
        return .shown
    }

    /// Whether `a` makes a better thumbnail than `b` when neither is shown as it is: the one
    /// with more to see.
    public func isBetter(_ a: PictureLevels, than b: PictureLevels) -> Bool {
        a.deviation * a.brightEnd > b.deviation * b.brightEnd
    }
}
