import CEpoxy
import ReelEngine

/// A GL texture format for one plane: how its samples are stored and uploaded.
/// Threading: a value type.
struct TextureFormat: Equatable {
    let internalFormat: GLint
    let format: GLenum
    let type: GLenum
    let bytesPerTexel: Int

    static let r8 = Self(internalFormat: GL_R8, format: GLenum(GL_RED), type: GLenum(GL_UNSIGNED_BYTE), bytesPerTexel: 1)
    static let rg8 = Self(internalFormat: GL_RG8, format: GLenum(GL_RG), type: GLenum(GL_UNSIGNED_BYTE), bytesPerTexel: 2)
    static let r16 = Self(internalFormat: GL_R16, format: GLenum(GL_RED), type: GLenum(GL_UNSIGNED_SHORT), bytesPerTexel: 2)
    static let rg16 = Self(internalFormat: GL_RG16, format: GLenum(GL_RG), type: GLenum(GL_UNSIGNED_SHORT), bytesPerTexel: 4)
    static let rgb8 = Self(internalFormat: GL_RGB8, format: GLenum(GL_RGB), type: GLenum(GL_UNSIGNED_BYTE), bytesPerTexel: 3)
    static let rgba8 = Self(internalFormat: GL_RGBA8, format: GLenum(GL_RGBA), type: GLenum(GL_UNSIGNED_BYTE), bytesPerTexel: 4)
}

/// How a decoded picture reaches the screen: YUV planes as textures converted in the shader,
/// packed RGB as one texture, or anything else converted to RGB by libswscale on the CPU.
/// Threading: a value type.
enum PictureLayout: Equatable {
    /// Y, Cb and Cr textures (`semiPlanar`: Cb and Cr interleaved in one two-channel texture).
    /// Threading: a value type.
    struct YUV: Equatable {
        let semiPlanar: Bool
        let luma: TextureFormat
        let chroma: TextureFormat
        /// Significant bits per sample, and what a texture value of 1.0 is in code values.
        let bitDepth: Int
        let sampleScale: Double
        /// Luma samples per chroma sample, across and down.
        let horizontalSubsampling: Int
        let verticalSubsampling: Int
    }

    case yuv(YUV)
    case rgb(TextureFormat, swapRedBlue: Bool)
    case converted

    /// - Parameter sixteenBitTextures: whether GL can filter 16-bit normalised textures (always
    ///   on desktop GL 3; GLES needs EXT_texture_norm16). Without them 10-bit goes through the CPU.
    init(_ format: PixelFormat, sixteenBitTextures: Bool) {
        func planar(_ h: Int, _ v: Int, tenBit: Bool = false) -> Self {
            if tenBit && !sixteenBitTextures { return .converted }
            // 10-bit samples sit in the low bits of 16 (…p10le): a texture value of 1.0 is 65535.
            return .yuv(YUV(semiPlanar: false, luma: tenBit ? .r16 : .r8, chroma: tenBit ? .r16 : .r8,
                            bitDepth: tenBit ? 10 : 8, sampleScale: tenBit ? 65535 : 255,
                            horizontalSubsampling: h, verticalSubsampling: v))
        }
        switch format {
        case .yuv420p: self = planar(2, 2)
        case .yuv422p: self = planar(2, 1)
        case .yuv444p: self = planar(1, 1)
        case .yuv420p10: self = planar(2, 2, tenBit: true)
        case .yuv422p10: self = planar(2, 1, tenBit: true)
        case .yuv444p10: self = planar(1, 1, tenBit: true)
        case .nv12:
            self = .yuv(YUV(semiPlanar: true, luma: .r8, chroma: .rg8, bitDepth: 8, sampleScale: 255,
                            horizontalSubsampling: 2, verticalSubsampling: 2))
        case .p010:
            // 10-bit samples in the high bits of 16, the low 6 zero: 1.0 is 65535 / 64 in 10-bit codes.
            self = sixteenBitTextures
                ? .yuv(YUV(semiPlanar: true, luma: .r16, chroma: .rg16, bitDepth: 10, sampleScale: 65535.0 / 64,
                           horizontalSubsampling: 2, verticalSubsampling: 2))
                : .converted
        case .rgb24: self = .rgb(.rgb8, swapRedBlue: false)
        case .rgba: self = .rgb(.rgba8, swapRedBlue: false)
        case .bgra: self = .rgb(.rgba8, swapRedBlue: true)
        // Grey has no matrix but a range convention of its own (libswscale's); let it decide.
        case .gray8, .other: self = .converted
        }
    }
}
