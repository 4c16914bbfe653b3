/// Where a set of primaries sits in CIE 1931 xy, and the linear maps that follow from it: RGB to
/// XYZ, and one RGB to another through XYZ. Threading: a value type.
public struct Gamut: Sendable, Equatable {
    public let red: Chromaticity
    public let green: Chromaticity
    public let blue: Chromaticity
    public let white: Chromaticity

    public init(red: Chromaticity, green: Chromaticity, blue: Chromaticity, white: Chromaticity) {
        self.red = red; self.green = green; self.blue = blue; self.white = white
    }

    package static let d65 = Chromaticity(x: 0.3127, y: 0.3290)
    public static let bt709 = Gamut(red: .init(x: 0.640, y: 0.330), green: .init(x: 0.300, y: 0.600),
                                    blue: .init(x: 0.150, y: 0.060), white: d65)
    public static let bt2020 = Gamut(red: .init(x: 0.708, y: 0.292), green: .init(x: 0.170, y: 0.797),
                                     blue: .init(x: 0.131, y: 0.046), white: d65)
    /// Display P3 (SMPTE EG 432-1): what HDR10 films are usually mastered in.
    public static let displayP3 = Gamut(red: .init(x: 0.680, y: 0.320), green: .init(x: 0.265, y: 0.690),
                                        blue: .init(x: 0.150, y: 0.060), white: d65)

    /// XYZ of a chromaticity at Y = 1.
    package static func xyz(_ c: Chromaticity) -> SIMD3<Double> { SIMD3(c.x / c.y, 1, (1 - c.x - c.y) / c.y) }

    /// Linear RGB in these primaries to CIE XYZ, white at Y = 1.
    public var rgbToXYZ: Matrix3 {
        let m = Matrix3(columns: Self.xyz(red), Self.xyz(green), Self.xyz(blue))
        let s = m.inverse * Self.xyz(white)
        return Matrix3(columns: Self.xyz(red) * s.x, Self.xyz(green) * s.y, Self.xyz(blue) * s.z)
    }

    /// The luminance of linear RGB: the Y row of `rgbToXYZ`.
    public var luma: SIMD3<Double> { rgbToXYZ.rows.1 }

    /// Linear RGB in these primaries to linear RGB in `target`'s, through XYZ (no adaptation:
    /// the gamuts Reel maps between share D65).
    public func conversion(to target: Gamut) -> Matrix3 {
        target.rgbToXYZ.inverse * rgbToXYZ
    }
}

extension ColorPrimaries {
    /// The gamut these primaries span, for the ones Reel maps from (nil: drawn as BT.709).
    public var gamut: Gamut? {
        switch self {
        case .bt2020: .bt2020
        case .bt709: .bt709
        case .smpte432: .displayP3
        default: nil
        }
    }
}
