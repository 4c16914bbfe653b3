import CFFmpeg

// The picture tags (Values/) as FFmpeg writes them on its frames, and as libswscale takes
// them: the one place they meet FFmpeg's enums.

extension PixelFormat {
    init(_ f: AVPixelFormat) {
        switch f {
        case AV_PIX_FMT_YUV420P, AV_PIX_FMT_YUVJ420P: self = .yuv420p
        case AV_PIX_FMT_YUV422P, AV_PIX_FMT_YUVJ422P: self = .yuv422p
        case AV_PIX_FMT_YUV444P, AV_PIX_FMT_YUVJ444P: self = .yuv444p
        case AV_PIX_FMT_YUV420P10LE: self = .yuv420p10
        case AV_PIX_FMT_YUV422P10LE: self = .yuv422p10
        case AV_PIX_FMT_YUV444P10LE: self = .yuv444p10
        case AV_PIX_FMT_NV12: self = .nv12
        case AV_PIX_FMT_P010LE: self = .p010
        case AV_PIX_FMT_GRAY8: self = .gray8
        case AV_PIX_FMT_RGB24: self = .rgb24
        case AV_PIX_FMT_RGBA: self = .rgba
        case AV_PIX_FMT_BGRA: self = .bgra
        default:
            self = .other(av_get_pix_fmt_name(f).map { String(cString: $0) } ?? "unknown")
        }
    }
}

extension ColorMatrix {
    /// Unspecified matrices follow the common convention: HD and larger is BT.709, SD is BT.601.
    init(_ space: AVColorSpace, height: Int) {
        switch space {
        case AVCOL_SPC_BT709: self = .bt709
        case AVCOL_SPC_BT470BG, AVCOL_SPC_SMPTE170M, AVCOL_SPC_FCC, AVCOL_SPC_SMPTE240M: self = .bt601
        case AVCOL_SPC_BT2020_NCL, AVCOL_SPC_BT2020_CL: self = .bt2020
        default: self = height >= 720 ? .bt709 : .bt601
        }
    }

    var swsColorspace: Int32 {
        switch self {
        case .bt601: SWS_CS_ITU601
        case .bt709: SWS_CS_ITU709
        case .bt2020: SWS_CS_BT2020
        }
    }
}

extension ColorRange {
    init(_ range: AVColorRange, format: AVPixelFormat) {
        switch format {
        case AV_PIX_FMT_YUVJ420P, AV_PIX_FMT_YUVJ422P, AV_PIX_FMT_YUVJ444P: self = .full
        default: self = range == AVCOL_RANGE_JPEG ? .full : .limited
        }
    }
}

extension ChromaLocation {
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

    /// libswscale's `src_h_chr_pos`/`src_v_chr_pos` for this siting, when 2^`log2Horizontal`
    /// × 2^`log2Vertical` luma samples share a chroma sample.
    func swscalePosition(log2Horizontal: Int, log2Vertical: Int) -> (horizontal: Int32, vertical: Int32) {
        func position(_ axis: AxisPosition, _ log2: Int) -> Int32 {
            Int32((axis.lumaOffset(factor: 1 << max(0, log2)) * 256).rounded())
        }
        return (position(axes.horizontal, log2Horizontal), position(axes.vertical, log2Vertical))
    }
}
