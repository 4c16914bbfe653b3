import CFFmpeg

/// The decoded pixel layouts a renderer may upload directly; anything else is `other` and can
/// be converted with `VideoFrame.rgbPixels`. Threading: value types.
public enum PixelFormat: Sendable, Equatable, CustomStringConvertible {
    case yuv420p, yuv422p, yuv444p
    case yuv420p10, yuv422p10, yuv444p10
    case nv12, p010
    case gray8, rgb24, rgba, bgra
    case other(String)

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

    public var description: String {
        switch self {
        case .yuv420p: "yuv420p"
        case .yuv422p: "yuv422p"
        case .yuv444p: "yuv444p"
        case .yuv420p10: "yuv420p10le"
        case .yuv422p10: "yuv422p10le"
        case .yuv444p10: "yuv444p10le"
        case .nv12: "nv12"
        case .p010: "p010le"
        case .gray8: "gray"
        case .rgb24: "rgb24"
        case .rgba: "rgba"
        case .bgra: "bgra"
        case .other(let name): name
        }
    }
}

/// The YUV→RGB matrix a frame was encoded with.
public enum ColorMatrix: String, Sendable {
    case bt601, bt709, bt2020

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

/// Whether luma spans 16–235 (limited, "TV") or 0–255 (full, "PC").
public enum ColorRange: String, Sendable {
    case limited, full

    init(_ range: AVColorRange, format: AVPixelFormat) {
        switch format {
        case AV_PIX_FMT_YUVJ420P, AV_PIX_FMT_YUVJ422P, AV_PIX_FMT_YUVJ444P: self = .full
        default: self = range == AVCOL_RANGE_JPEG ? .full : .limited
        }
    }
}
