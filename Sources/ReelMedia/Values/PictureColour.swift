/// A picture's colour description beyond its YUV matrix and range: the primaries it was
/// mastered in, its transfer (how code values become light) and, for HDR, what its metadata
/// says of the mastering display and the content's light. Read from each decoded frame (and,
/// for `MediaInfo`, from the stream); the drawing paths choose their colour steps from it
/// (`ColourPlan`). Threading: a value type.
public struct PictureColour: Sendable, Equatable, Codable {
    public var primaries: ColorPrimaries
    public var transfer: TransferFunction
    public var hdr: HDRMetadata?

    public init(primaries: ColorPrimaries = .unspecified, transfer: TransferFunction = .unspecified,
                hdr: HDRMetadata? = nil) {
        self.primaries = primaries
        self.transfer = transfer
        self.hdr = hdr
    }
}

/// The colour primaries a picture was mastered in (H.273's ColourPrimaries). The raw values are
/// FFmpeg's names for them, so `reel-tool info` says what `ffprobe` says.
/// Threading: a value type.
public enum ColorPrimaries: String, Sendable, Codable, CaseIterable {
    case unspecified = "unknown"
    case bt709
    case bt470m
    case bt470bg
    case smpte170m
    case smpte240m
    case film
    case bt2020
    case smpte428
    /// DCI-P3 (white point of the cinema projector).
    case smpte431
    /// Display P3 (P3 primaries, D65 white).
    case smpte432
    case ebu3213

    /// BT.2020/BT.2100, whose gamut is wider than what an SDR display shows.
    public var isWideGamut: Bool { self == .bt2020 }
}

/// How the picture's code values relate to light (H.273's TransferCharacteristics). The raw
/// values are FFmpeg's names for them (`ffprobe`'s `color_transfer`).
/// Threading: a value type.
public enum TransferFunction: String, Sendable, Codable, CaseIterable {
    case unspecified = "unknown"
    /// BT.709's camera curve; displays show it with BT.1886 (a 2.4 power).
    case bt709
    case gamma22 = "bt470m"
    case gamma28 = "bt470bg"
    case smpte170m
    case smpte240m
    case linear
    case log100
    case log316 = "log316"
    case iec61966_2_4 = "iec61966-2-4"
    case bt1361e
    case srgb = "iec61966-2-1"
    case bt2020_10 = "bt2020-10"
    case bt2020_12 = "bt2020-12"
    /// SMPTE ST 2084, the perceptual quantizer: absolute light up to 10,000 cd/m² (HDR10).
    case pq = "smpte2084"
    case smpte428
    /// ARIB STD-B67, hybrid log-gamma: scene light, shown relative to the display's peak.
    case hlg = "arib-std-b67"

    /// PQ and HLG: more light than an SDR display's white.
    public var isHDR: Bool { self == .pq || self == .hlg }

    /// The SDR curves that displays show as BT.1886 (a 2.4 power with the display's black).
    public var isSDRCamera: Bool {
        [.bt709, .smpte170m, .bt2020_10, .bt2020_12, .unspecified].contains(self)
    }
}

/// A point of the CIE 1931 xy chromaticity diagram. Threading: a value type.
public struct Chromaticity: Sendable, Equatable, Codable {
    public var x: Double
    public var y: Double
    public init(x: Double, y: Double) { self.x = x; self.y = y }
}

/// What an HDR stream says of the display it was graded on (SMPTE ST 2086) and of its own
/// light (CTA-861.3's content light level), from the frames' side data or the container's.
/// Threading: a value type.
public struct HDRMetadata: Sendable, Equatable, Codable {
    /// The mastering display: its primaries and white, and its black and peak in cd/m².
    /// Threading: a value type.
    public struct Mastering: Sendable, Equatable, Codable {
        public var red: Chromaticity?
        public var green: Chromaticity?
        public var blue: Chromaticity?
        public var white: Chromaticity?
        public var minLuminance: Double?
        public var maxLuminance: Double?

        public init(red: Chromaticity? = nil, green: Chromaticity? = nil, blue: Chromaticity? = nil,
                    white: Chromaticity? = nil, minLuminance: Double? = nil, maxLuminance: Double? = nil) {
            self.red = red; self.green = green; self.blue = blue; self.white = white
            self.minLuminance = minLuminance; self.maxLuminance = maxLuminance
        }
    }

    public var mastering: Mastering?
    /// The brightest pixel of the whole stream (MaxCLL), in cd/m².
    public var maxCLL: Int?
    /// The brightest frame's average (MaxFALL), in cd/m².
    public var maxFALL: Int?

    public init(mastering: Mastering? = nil, maxCLL: Int? = nil, maxFALL: Int? = nil) {
        self.mastering = mastering
        self.maxCLL = maxCLL
        self.maxFALL = maxFALL
    }

    /// Nil when nothing was said (an empty side-data record says nothing).
    public var nonEmpty: HDRMetadata? {
        mastering == nil && maxCLL == nil && maxFALL == nil ? nil : self
    }
}

/// A stream's Dolby Vision configuration record (its `dvcC`/`dvvC` box or Matroska block), and
/// what Reel makes of it: Reel does not apply the RPU's reshaping, so it plays a stream whose
/// base layer stands alone (HDR10, SDR or HLG) as that base layer, with the base layer's own
/// tags, as libplacebo with `apply_dolbyvision=0` does.
/// Threading: a value type.
public struct DolbyVision: Sendable, Equatable, Codable {
    public var profile: Int
    public var level: Int
    public var hasRPU: Bool
    public var hasEnhancementLayer: Bool
    public var hasBaseLayer: Bool
    /// `dv_bl_signal_compatibility_id`: what a player that ignores Dolby Vision sees.
    public var compatibility: Int

    public init(profile: Int, level: Int, hasRPU: Bool, hasEnhancementLayer: Bool, hasBaseLayer: Bool,
                compatibility: Int) {
        self.profile = profile
        self.level = level
        self.hasRPU = hasRPU
        self.hasEnhancementLayer = hasEnhancementLayer
        self.hasBaseLayer = hasBaseLayer
        self.compatibility = compatibility
    }

    /// How the stream plays. Threading: a value type.
    public enum Playback: String, Sendable, Equatable, Codable {
        /// The base layer is HDR10 (profiles 7 and 8.1): played as HDR10.
        case hdr10
        /// The base layer is SDR BT.709 (profile 8.2).
        case sdr
        /// The base layer is HLG (profile 8.4).
        case hlg
        /// Nothing stands alone without the RPU (profile 5's IPTPQc2): the colours come out wrong.
        case unsupported
    }

    public var playback: Playback {
        guard hasBaseLayer else { return .unsupported }
        switch compatibility {
        case 1, 6: return .hdr10
        case 2: return .sdr
        case 4: return .hlg
        default: return .unsupported
        }
    }

    /// The transfer the stream is drawn with: the base layer's as tagged, else the one its
    /// compatibility names; nil when no base layer stands alone.
    public func baseLayerTransfer(tagged: TransferFunction) -> TransferFunction? {
        switch playback {
        case .unsupported: nil
        case _ where tagged != .unspecified: tagged
        case .hdr10: .pq
        case .hlg: .hlg
        case .sdr: .bt709
        }
    }
}

/// How a stream's pictures are scanned, as FFmpeg's `AVFieldOrder` (and `ffprobe`'s
/// `field_order`) names it: progressive, or interlaced with the fields in one of four orders
/// (demuxers and decoders do not agree on `tb` and `bt`; the frames' own flags decide).
/// Threading: a value type.
public enum FieldOrder: String, Sendable, Codable {
    case unknown, progressive, tt, bb, tb, bt

    public var isInterlaced: Bool { self != .unknown && self != .progressive }
}
