/// The decoded pixel layouts a renderer may upload directly; anything else is `other` and can
/// be converted with `VideoFrame.rgbPixels`. Threading: value types.
public enum PixelFormat: Sendable, Equatable, CustomStringConvertible {
    case yuv420p, yuv422p, yuv444p
    case yuv420p10, yuv422p10, yuv444p10
    case nv12, p010
    case gray8, rgb24, rgba, bgra
    case other(String)

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

    /// Luma weights (Kr, Kb) of each matrix; Kg = 1 − Kr − Kb.
    public var lumaWeights: (kr: Double, kb: Double) {
        switch self {
        case .bt601: (0.299, 0.114)
        case .bt709: (0.2126, 0.0722)
        case .bt2020: (0.2627, 0.0593)
        }
    }

    /// R′G′B′ from Y′ in 0…1 and Cb, Cr in −½…½, by these weights: the columns multiply Y′, Cb
    /// and Cr. The shader's conversion and the video equalizer both start from it.
    public var toRGB: Matrix3 {
        let (kr, kb) = lumaWeights
        let kg = 1 - kr - kb
        return Matrix3(columns: [1, 1, 1], [0, -2 * kb * (1 - kb) / kg, 2 * (1 - kb)],
                       [2 * (1 - kr), -2 * kr * (1 - kr) / kg, 0])
    }
}

/// Whether luma spans 16–235 (limited, "TV") or 0–255 (full, "PC").
public enum ColorRange: String, Sendable {
    case limited, full
}
