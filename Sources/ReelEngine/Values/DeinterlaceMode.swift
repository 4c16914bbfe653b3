/// Whether interlaced pictures are deinterlaced (mpv's `deinterlace`, cycled by its `d` key):
/// `auto` deinterlaces the frames flagged interlaced once the first such frame is met, `on`
/// every frame (a recording flagged wrongly), `off` none (the fields shown woven).
/// Threading: a value type.
public enum DeinterlaceMode: String, Sendable, CaseIterable {
    case auto
    case on
    case off

    /// The mode after this one in the cycle a key or menu item steps through.
    public var next: DeinterlaceMode {
        switch self {
        case .auto: .on
        case .on: .off
        case .off: .auto
        }
    }
}

/// What the engine does to interlaced pictures now, for the info card and reports.
/// Threading: a value type.
public struct DeinterlaceStatus: Sendable, Equatable {
    public let mode: DeinterlaceMode
    /// Pictures are deinterlaced now: each field becomes a whole picture.
    public let isActive: Bool
    /// The libavfilter filter doing it.
    public let filter: String
    /// Pictures a second after deinterlacing (twice the frame rate; nil when the rate is unknown).
    public let picturesPerSecond: Double?
    /// The field order of the interlaced frames met (nil: none met, or off).
    public let topFieldFirst: Bool?

    public init(mode: DeinterlaceMode, isActive: Bool, filter: String = "bwdif", picturesPerSecond: Double? = nil,
                topFieldFirst: Bool? = nil) {
        self.mode = mode
        self.isActive = isActive
        self.filter = filter
        self.picturesPerSecond = picturesPerSecond
        self.topFieldFirst = topFieldFirst
    }
}
