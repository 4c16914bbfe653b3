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
