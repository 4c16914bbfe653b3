import Foundation

/// What a picture's colours need to look right on an SDR BT.709 display (BT.1886, 203 cd/m²
/// white, 1000:1), decided from its tags and HDR metadata as libplacebo 4.208 decides it with
/// `tonemapping=bt2390`: how its signal becomes light, the source's black and peak, whether and
/// how its light is tone-mapped, and whether its gamut is mapped to BT.709. Nil where nothing is
/// to be done (SDR in BT.709 primaries: drawn as before). The per-pixel steps, the tables and the
/// shader constants the two drawing paths use all come from here.
/// Threading: a value type.
public struct ColourPlan: Sendable, Equatable {
    /// BT.2408's reference (graphics) white, the unit of all relative light here.
    public static let referenceWhite = 203.0
    /// libplacebo's peak for PQ without usable metadata: the whole of PQ.
    public static let defaultPQPeak = 10000.0
    /// BT.2100's reference HLG display (mpv 0.35 would take 766).
    public static let defaultHLGPeak = 1000.0
    /// libplacebo's black for HDR without usable metadata, in cd/m².
    public static let defaultHDRBlack = 0.005
    /// The target's black relative to its white: libplacebo infers 1000:1 for SDR.
    public static let targetBlack = 0.001
    /// Above this ratio of source to target peak, the curve runs per channel near black and
    /// white (libplacebo's `tonemapping_mode=auto` picks "hybrid").
    public static let hybridRatio = 10.0
    /// libplacebo's `tone_mapping_crosstalk` default.
    public static let crosstalk = 0.04

    /// How the signal becomes light. Threading: a value type.
    public enum Linearisation: String, Sendable {
        case pq, hlg, bt1886
    }

    /// How light above the target's peak is brought down. Threading: a value type.
    public enum Mode: String, Sendable {
        /// The source fits the target.
        case none
        /// On luminance (XYZ's Y), keeping the colour's ratios.
        case luma
        /// Luma in the mid-tones, per channel near black and white (sources brighter than 10:1).
        case hybrid
    }

    /// Where the source's peak came from. Threading: a value type.
    public enum PeakSource: String, Sendable {
        /// The mastering display's peak (SMPTE ST 2086).
        case mastering
        /// The content light level's MaxCLL (no usable mastering peak).
        case contentLight = "max_cll"
        /// Nothing usable: the transfer's default (10,000 cd/m² for PQ, 1,000 for HLG, 203 for SDR).
        case assumed
    }

    public let linearisation: Linearisation
    /// The source's peak and black, in cd/m².
    public let peak: Double
    public let black: Double
    public let peakSource: PeakSource
    public let mode: Mode
    /// BT.2020 (or P3) primaries shown in BT.709's, clipped; nil when the source is BT.709.
    public let gamutMap: Matrix3?
    /// The source's primaries (luminance and crosstalk are worked in them).
    public let sourceGamut: Gamut
    /// The levels in relative light: the curve's domain and range.
    public let sourceMin: Double
    public let sourceMax: Double
    public let targetMin: Double
    public let targetMax: Double
    public let curve: ToneCurve?

    /// The plan for a picture with these tags; nil when it is drawn as it always was.
    public init?(transfer: TransferFunction, primaries: ColorPrimaries, hdr: HDRMetadata?) {
        let wide = primaries.gamut.map { $0 != .bt709 } ?? false
        if transfer == .pq || transfer == .hlg {
            linearisation = transfer == .pq ? .pq : .hlg
            let found = Self.peak(transfer: transfer, hdr: hdr)
            peak = found.0
            peakSource = found.1
            black = Self.black(hdr: hdr)
        } else if wide && transfer.isSDRCamera {
            // BT.2020 SDR: a BT.1886 display of the target's own white and contrast.
            linearisation = .bt1886
            peak = Self.referenceWhite
            peakSource = .assumed
            black = Self.referenceWhite * Self.targetBlack
        } else {
            return nil
        }
        sourceGamut = wide ? primaries.gamut! : .bt709
        gamutMap = wide ? sourceGamut.conversion(to: .bt709) : nil
        sourceMin = max(black / Self.referenceWhite, 1e-7)
        sourceMax = peak / Self.referenceWhite
        targetMin = Self.targetBlack
        targetMax = min(1, sourceMax)
        if sourceMax > targetMax + 1e-6 {
            mode = sourceMax / targetMax > Self.hybridRatio ? .hybrid : .luma
            curve = ToneCurve(sourceMin: sourceMin, sourceMax: sourceMax, targetMin: targetMin, targetMax: targetMax)
        } else {
            mode = .none
            curve = nil
        }
    }

    /// The peak rule. PQ: the mastering display's peak when in [1, 10000] cd/m², else MaxCLL
    /// when in the same range (newer libplacebo's fallback; 4.208 ignores MaxCLL, mpv 0.35
    /// takes it first), else all of PQ. HLG: the mastering peak, else BT.2100's 1000 cd/m².
    public static func peak(transfer: TransferFunction, hdr: HDRMetadata?) -> (Double, PeakSource) {
        let valid = 1.0...10000.0
        if let max = hdr?.mastering?.maxLuminance, valid.contains(max) { return (max, .mastering) }
        if transfer == .hlg { return (defaultHLGPeak, .assumed) }
        if let cll = hdr?.maxCLL.map(Double.init), valid.contains(cll) { return (cll, .contentLight) }
        return (defaultPQPeak, .assumed)
    }

    /// The black rule: the mastering display's black when in (0, 100] cd/m², else 0.005.
    public static func black(hdr: HDRMetadata?) -> Double {
        if let min = hdr?.mastering?.minLuminance, min > 0, min <= 100 { return min }
        return defaultHDRBlack
    }

    /// Exponent of the colour ratio's follow of the curve (libplacebo: ln 1.1 / ln(1000/203)).
    public static let ratioExponent = log(1.1) / log(1000 / referenceWhite)

    /// The curve's name for the info card and `--report`: libplacebo's ("bt.2390"), or "none".
    public var curveName: String { mode == .none ? "none" : "bt.2390" }
}

extension PictureColour {
    /// The plan for pictures of this description; `streamHDR` stands in for HDR metadata the
    /// frame does not carry (the container's, as MP4's `mdcv`/`clli` give it).
    public func plan(streamHDR: HDRMetadata? = nil) -> ColourPlan? {
        ColourPlan(transfer: transfer, primaries: primaries, hdr: hdr ?? streamHDR)
    }
}
