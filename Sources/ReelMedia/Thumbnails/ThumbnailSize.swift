/// How big a thumbnail is drawn: a height or a width (the other side follows the picture's
/// display aspect ratio), or the largest size that fits a box.
/// Threading: a value type.
public enum ThumbnailSize: Sendable, Hashable {
    case height(Int)
    case width(Int)
    case fitting(width: Int, height: Int)

    /// 160 pixels high: the size YouTube and mpv's thumbnail scripts settle on for a card
    /// above a scrubber.
    public static let standard = ThumbnailSize.height(160)

    /// The pixel size of a thumbnail of a picture that displays `displayWidth`×`displayHeight`
    /// (after sample aspect ratio and rotation), at least 1×1 and at most 4096 on a side.
    public func pixels(displayWidth: Double, displayHeight: Double) -> (width: Int, height: Int) {
        let aspect = displayWidth > 0 && displayHeight > 0 ? displayWidth / displayHeight : 16.0 / 9
        func clamp(_ v: Double) -> Int { min(4096, max(1, Int(v.rounded()))) }
        switch self {
        case .height(let h):
            return (clamp(Double(h) * aspect), clamp(Double(h)))
        case .width(let w):
            return (clamp(Double(w)), clamp(Double(w) / aspect))
        case .fitting(let w, let h):
            if Double(w) / Double(max(h, 1)) > aspect {
                return (clamp(Double(h) * aspect), clamp(Double(h)))
            }
            return (clamp(Double(w)), clamp(Double(w) / aspect))
        }
    }

    /// The thumbnail size of the video stream `stream` shows (its display aspect ratio: the
    /// sample aspect ratio widens it, a quarter turn swaps its sides), shaped by `transform`
    /// as the provider shapes its pictures (`ShapedPicture`), so a host can lay out a card
    /// before the first picture arrives.
    public func pixels(for stream: StreamInfo, transform: PictureTransform = .identity) -> (width: Int, height: Int) {
        let sar = stream.sampleAspectRatio.map { $0.value > 0 ? $0.value : 1 } ?? 1
        let shaped = ShapedPicture(width: stream.width ?? 16, height: stream.height ?? 9, sampleAspect: sar,
                                   clockwise: stream.rotation, transform: transform)
        return pixels(displayWidth: shaped.displayWidth, displayHeight: shaped.displayHeight)
    }
}
