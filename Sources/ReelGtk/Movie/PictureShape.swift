import ReelEngine

/// How the person has shaped the picture on screen: the transform kept per file (crop, aspect,
/// turns, mirror) and how it is viewed now (zoom, pan, fill), which starts over with each file.
/// The window changes it through these steps; both drawing paths read it through
/// `PicturePlacement`. Threading: a value type.
public struct PictureShape: Equatable, Sendable {
    public var transform = PictureTransform.identity
    /// log2 of the magnification over the fitted size (mpv's `video-zoom`): 1 doubles.
    public var zoom = 0.0
    /// Offset of the picture's centre from the view's, as fractions of the picture's size
    /// (mpv's `video-pan-x/y`); drawn clamped so an overflowing axis stays covered.
    public var panX = 0.0, panY = 0.0
    /// Fill the view, cutting off what overflows (mpv's `panscan=1`).
    public var fill = false

    public init(transform: PictureTransform = .identity, zoom: Double = 0, panX: Double = 0, panY: Double = 0, fill: Bool = false) {
        self.transform = transform
        self.zoom = zoom
        self.panX = panX
        self.panY = panY
        self.fill = fill
    }

    public static let plain = PictureShape()

    /// A zoom step (Alt+plus/minus, Ctrl+scroll), as mpv's 0.1 in log2 units, kept within a
    /// quarter and eight times the fitted size.
    public static let zoomStep = 0.1
    public static let zoomRange = -2.0...3.0
    /// A pan step (Alt+arrows), a tenth of the picture, as mpv's.
    public static let panStep = 0.1

    public func zoomed(by steps: Double) -> PictureShape {
        var s = self
        s.zoom = min(Self.zoomRange.upperBound, max(Self.zoomRange.lowerBound, ((zoom + steps * Self.zoomStep) * 1000).rounded() / 1000))
        return s
    }

    /// Moved by whole pan steps; the picture moves the way the arrow points. Beyond half the
    /// picture nothing more could show, so the pan stops there.
    public func panned(x dx: Double, y dy: Double) -> PictureShape {
        var s = self
        s.panX = min(0.5, max(-0.5, ((panX + dx * Self.panStep) * 1000).rounded() / 1000))
        s.panY = min(0.5, max(-0.5, ((panY + dy * Self.panStep) * 1000).rounded() / 1000))
        return s
    }

    /// Zoom, pan and fill back to the fitted picture; the transform stays unless `all`.
    public func reset(all: Bool = false) -> PictureShape {
        PictureShape(transform: all ? .identity : transform)
    }

    /// Zoom and pan, undone or not, are how the picture is viewed now; a fresh file keeps only
    /// what is remembered for it.
    public var isViewed: Bool { zoom != 0 || panX != 0 || panY != 0 || fill }
}
