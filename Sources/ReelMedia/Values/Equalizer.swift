import Foundation

/// The video equalizer: contrast, brightness, gamma, saturation and hue, each from −100 to 100
/// with 0 leaving the picture alone, in mpv's units and with mpv's meanings, so that a person
/// who knows `1`–`8` there finds the same steps here. Both drawing paths and the exports read
/// the same numbers from it. Threading: a value type.
public struct Equalizer: Sendable, Equatable, Codable {
    /// One control, in the order of mpv's keys (`1`/`2` contrast … `7`/`8` saturation) and
    /// then hue, which has no key there.
    public enum Control: String, Sendable, CaseIterable, Codable {
        case contrast, brightness, gamma, saturation, hue
    }

    public var contrast = 0, brightness = 0, gamma = 0, saturation = 0, hue = 0

    public static let neutral = Equalizer()
    public static let range = -100...100

    public init(contrast: Int = 0, brightness: Int = 0, gamma: Int = 0, saturation: Int = 0, hue: Int = 0) {
        self.contrast = Self.clamped(contrast)
        self.brightness = Self.clamped(brightness)
        self.gamma = Self.clamped(gamma)
        self.saturation = Self.clamped(saturation)
        self.hue = Self.clamped(hue)
    }

    public var isNeutral: Bool { self == .neutral }

    /// From `contrast=N,brightness=N,gamma=N,saturation=N,hue=N` (any of them, any order, N an
    /// integer from −100 to 100); nil for anything else.
    public init?(parsing text: String) {
        self.init()
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let pair = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2, let control = Control(rawValue: pair[0]), let value = Int(pair[1]),
                  Self.range.contains(value) else { return nil }
            self[control] = value
        }
    }

    public subscript(control: Control) -> Int {
        get {
            switch control {
            case .contrast: contrast
            case .brightness: brightness
            case .gamma: gamma
            case .saturation: saturation
            case .hue: hue
            }
        }
        set {
            let v = Self.clamped(newValue)
            switch control {
            case .contrast: contrast = v
            case .brightness: brightness = v
            case .gamma: gamma = v
            case .saturation: saturation = v
            case .hue: hue = v
            }
        }
    }

    /// `control` moved by `steps`, kept within the range.
    public func stepped(_ control: Control, by steps: Int) -> Equalizer {
        var e = self
        e[control] = self[control] + steps
        return e
    }

    private static func clamped(_ v: Int) -> Int { min(range.upperBound, max(range.lowerBound, v)) }

    // MARK: The mathematics (mpv's `csputils.c` and `gpu/video.c`)

    /// Added to R′, G′ and B′ (signal units, 0…1), after contrast.
    public var offset: Double { Double(brightness) / 100 }
    /// Scales Y′ and chroma alike, so it pivots at black.
    public var contrastGain: Double { Double(contrast + 100) / 100 }
    public var saturationGain: Double { Double(saturation + 100) / 100 }
    /// Turns chroma by this angle (radians): at ±100 half a turn.
    public var hueAngle: Double { Double(hue) / 100 * .pi }
    /// The display gamma's factor g (1/8 … 8); the signal becomes V^(1/g) last.
    public var gammaFactor: Double { pow(8, Double(gamma) / 100) }
    public var hasGamma: Bool { gamma != 0 }

    /// What it does to (Y′, Cb, Cr) with Y′ in 0…1 and Cb, Cr in −½…½: contrast on all three,
    /// saturation and hue on chroma (Cb′ = cos h·Cb + sin h·Cr, Cr′ = −sin h·Cb + cos h·Cr).
    /// The brightness is `offset`, added in R′G′B′.
    public var yuvMatrix: Matrix3 {
        let c = contrastGain, s = saturationGain * c
        let (cosH, sinH) = (cos(hueAngle), sin(hueAngle))
        return Matrix3([c, 0, 0], [0, s * cosH, s * sinH], [0, -s * sinH, s * cosH])
    }

    /// The same on R′G′B′ whose Y′CbCr is `matrix`'s: rgb′ = M·E·M⁻¹·rgb + `offset` (M the
    /// Y′CbCr→R′G′B′ matrix), black staying black before the brightness. For RGB pictures
    /// (no matrix of their own) BT.709's weights give saturation and hue their meaning.
    public func rgbMatrix(_ matrix: ColorMatrix) -> Matrix3 {
        let toRGB = matrix.toRGB
        return toRGB * yuvMatrix * toRGB.inverse
    }
}
