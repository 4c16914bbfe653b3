import CFFmpeg

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

    /// libswscale's `src_h_chr_pos`/`src_v_chr_pos` for this siting: the chroma sample's
    /// distance from the first luma sample it covers, in 1/256 of a luma sample, when
    /// 2^`log2Horizontal` × 2^`log2Vertical` luma samples share it.
    func swscalePosition(log2Horizontal: Int, log2Vertical: Int) -> (horizontal: Int32, vertical: Int32) {
        enum Axis { case first, centered, last }
        let (h, v): (Axis, Axis) = switch self {
        case .left, .unspecified: (.first, .centered)
        case .center: (.centered, .centered)
        case .topLeft: (.first, .first)
        case .top: (.centered, .first)
        case .bottomLeft: (.first, .last)
        case .bottom: (.centered, .last)
        }
        func offset(_ axis: Axis, _ log2: Int) -> Int32 {
            let factor = Int32(1) << Int32(max(0, log2))
            switch axis {
            case .first: return 0
            case .centered: return (factor - 1) * 128
            case .last: return (factor - 1) * 256
            }
        }
        return (offset(h, log2Horizontal), offset(v, log2Vertical))
    }

    init(_ location: AVChromaLocation) {
        switch location {
        case AVCHROMA_LOC_LEFT: self = .left
        case AVCHROMA_LOC_CENTER: self = .center
        case AVCHROMA_LOC_TOPLEFT: self = .topLeft
        case AVCHROMA_LOC_TOP: self = .top
        case AVCHROMA_LOC_BOTTOMLEFT: self = .bottomLeft
        case AVCHROMA_LOC_BOTTOM: self = .bottom
        default: self = .unspecified
        }
    }
}
