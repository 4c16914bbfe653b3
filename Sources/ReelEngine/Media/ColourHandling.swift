/// What Reel found of a video's colours and what it does to show them on an SDR BT.709
/// display, for people (the info card, `--report`) and tools (`reel-tool`'s JSON): the kind of
/// signal (HDR10, PQ, HLG, SDR in a wide gamut), its peak and where that peak came from, the tone
/// curve and how it is applied, whether the gamut is mapped, and the Dolby Vision configuration
/// with what Reel makes of it. Nil for SDR BT.709 without Dolby Vision: nothing to say or do.
/// The English `description` is for logs and `--report`; windows word it in the person's language.
/// Threading: a value type.
public struct ColourHandling: Sendable, Equatable, CustomStringConvertible {
    /// The kind of picture, as people name it. Threading: a value type.
    public enum Signal: String, Sendable {
        /// PQ in BT.2020 primaries.
        case hdr10
        /// PQ in other primaries.
        case pq
        case hlg
        /// SDR in primaries wider than BT.709's (BT.2020, P3): only the gamut is mapped.
        case wideGamutSDR = "wide_gamut_sdr"
    }

    public let signal: Signal?
    public let primaries: ColorPrimaries
    public let transfer: TransferFunction
    /// The source's peak in cd/m² and where it came from; nil for SDR.
    public let peak: Double?
    public let peakSource: ColourPlan.PeakSource?
    /// The tone curve's name ("bt.2390", libplacebo's), nil when the light is not tone-mapped.
    public let curve: String?
    public let mode: ColourPlan.Mode
    /// The source's primaries are clipped into BT.709's.
    public let mapsGamut: Bool
    public let dolbyVision: DolbyVision?

    /// What a picture of `colour` (its own plan, as the drawing paths make it) in a stream with
    /// `dolbyVision` is; nil when it is plain SDR BT.709.
    public init?(colour: PictureColour, dolbyVision: DolbyVision? = nil) {
        let plan = colour.plan()
        guard plan != nil || dolbyVision != nil else { return nil }
        primaries = colour.primaries
        transfer = colour.transfer
        self.dolbyVision = dolbyVision
        mapsGamut = plan?.gamutMap != nil
        mode = plan?.mode ?? .none
        curve = plan?.curve == nil ? nil : plan?.curveName
        switch plan?.linearisation {
        case .pq:
            signal = colour.primaries == .bt2020 ? .hdr10 : .pq
        case .hlg:
            signal = .hlg
        case .bt1886:
            signal = .wideGamutSDR
        case nil:
            signal = nil
        }
        let hdr = plan?.linearisation == .pq || plan?.linearisation == .hlg
        peak = hdr ? plan?.peak : nil
        peakSource = hdr ? plan?.peakSource : nil
    }

    /// What a stream is, from what probing found (`StreamInfo.colour`, `dolbyVision`).
    public init?(stream: StreamInfo) {
        self.init(colour: stream.colour ?? PictureColour(), dolbyVision: stream.dolbyVision)
    }

    /// The name of primaries in prose: "BT.2020", "Display P3".
    public static func name(of primaries: ColorPrimaries) -> String {
        switch primaries {
        case .bt2020: "BT.2020"
        case .bt709: "BT.709"
        case .smpte432: "Display P3"
        case .smpte431: "DCI-P3"
        default: primaries.rawValue
        }
    }

    /// "HDR10 (PQ, BT.2020), mastering peak 1000 cd/m²; tone mapping: BT.2390 to SDR, luma;
    /// Dolby Vision profile 8.1, HDR10 base layer".
    public var description: String {
        var parts: [String] = []
        if let signal {
            let kind: String
            switch signal {
            case .hdr10: kind = "HDR10 (PQ, BT.2020)"
            case .pq: kind = "PQ (\(Self.name(of: primaries)))"
            case .hlg: kind = "HLG (\(Self.name(of: primaries)))"
            case .wideGamutSDR: kind = "\(Self.name(of: primaries)) SDR"
            }
            var peakText = ""
            if let peak, let peakSource {
                let nits = Self.nits(peak)
                switch peakSource {
                case .mastering: peakText = ", mastering peak \(nits) cd/m²"
                case .contentLight: peakText = ", MaxCLL \(nits) cd/m²"
                case .assumed: peakText = ", peak \(nits) cd/m² assumed"
                }
            }
            parts.append(kind + peakText)
            if curve != nil { parts.append("tone mapping: BT.2390 to SDR, \(mode.rawValue)") }
            if mapsGamut { parts.append("gamut: \(Self.name(of: primaries)) clipped to BT.709") }
        }
        if let dolbyVision { parts.append(dolbyVision.description) }
        return parts.joined(separator: "; ")
    }

    /// Whole cd/m² as people write them ("1000"), fractions kept ("0.005").
    public static func nits(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}

extension DolbyVision: CustomStringConvertible {
    /// "8.1": profile 8's compatibility is part of its name; other profiles go by their number.
    public var profileName: String { profile == 8 ? "8.\(compatibility)" : String(profile) }

    /// "Dolby Vision profile 8.1, HDR10 base layer", or that its colours will be wrong.
    public var description: String {
        switch playback {
        case .hdr10: "Dolby Vision profile \(profileName), HDR10 base layer"
        case .hlg: "Dolby Vision profile \(profileName), HLG base layer"
        case .sdr: "Dolby Vision profile \(profileName), SDR base layer"
        case .unsupported: "Dolby Vision profile \(profileName), no base layer Reel can show: its colours will be wrong"
        }
    }

    /// The policy: a stream whose base layer stands alone plays as that layer (its own tags, as
    /// libplacebo with `apply_dolbyvision=0` draws it) with nothing to warn of; one whose
    /// pictures need the RPU's reshaping (profile 5's IPTPQc2) plays, wrongly coloured, with a
    /// warning saying so.
    public func warning(stream: Int) -> PlayerWarning? {
        playback == .unsupported ? .dolbyVisionColours(stream: stream, profile: profileName) : nil
    }
}
