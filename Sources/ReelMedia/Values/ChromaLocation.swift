/// Where a subsampled picture's chroma samples sit relative to its luma samples, as the
/// stream says (AVFrame.chroma_location). `unspecified` is left for the renderer to decide:
/// the right default depends on what made the picture. Threading: a value type.
public enum ChromaLocation: String, Sendable {
    /// Horizontally co-sited with the left luma sample, vertically between the rows
    /// (MPEG-2/4, H.264 and HEVC 4:2:0).
    case left
    /// Centred between the luma samples both ways (MPEG-1, JPEG).
    case center
    /// Co-sited with the top-left luma sample (H.26x chroma_sample_loc_type 2, usual for UHD HDR).
    case topLeft
    case top
    case bottomLeft
    case bottom
    case unspecified

    /// The siting to draw with: the stream's, or, when it says nothing, the convention of what
    /// made it: MPEG-family video (limited range) sites chroma left, JPEG-family pictures (full
    /// range) centre. The renderer and the libswscale export both follow this one rule.
    public func resolved(for range: ColorRange) -> ChromaLocation {
        self == .unspecified ? (range == .full ? .center : .left) : self
    }

    /// A chroma sample's place within the group of luma samples it covers, along one axis.
    /// Threading: a value type.
    public enum AxisPosition: Sendable, Equatable {
        /// On the group's first luma sample (left or top).
        case first
        /// Midway between the group's luma samples.
        case centered
        /// On the group's last luma sample (bottom).
        case last

        /// The chroma sample's distance from its group's first luma sample, in luma samples,
        /// when `factor` luma samples share it (libswscale's `*_chr_pos` is this × 256).
        public func lumaOffset(factor: Int) -> Double {
            switch self {
            case .first: 0
            case .centered: Double(max(factor, 1) - 1) / 2
            case .last: Double(max(factor, 1) - 1)
            }
        }
    }

    /// Where the chroma sample sits horizontally and vertically (unspecified counts as left,
    /// MPEG's default; callers resolve it first with `resolved(for:)`).
    public var axes: (horizontal: AxisPosition, vertical: AxisPosition) {
        switch self {
        case .left, .unspecified: (.first, .centered)
        case .center: (.centered, .centered)
        case .topLeft: (.first, .first)
        case .top: (.centered, .first)
        case .bottomLeft: (.first, .last)
        case .bottom: (.centered, .last)
        }
    }
}
