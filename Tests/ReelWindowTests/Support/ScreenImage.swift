import Foundation
import ReelTestSupport

/// Reads screenshots: the average colour of a region, its brightest pixel, the share of a
/// picture in one colour (ImageMagick does the arithmetic).
/// Threading: stateless.
public enum ScreenImage {
    public struct Color: Sendable, CustomStringConvertible {
        public let r: Double, g: Double, b: Double
        public var description: String { String(format: "rgb(%.0f,%.0f,%.0f)", r, g, b) }
        public func distance(to other: Color) -> Double {
            ((r - other.r) * (r - other.r) + (g - other.g) * (g - other.g) + (b - other.b) * (b - other.b)).squareRoot()
        }
    }

    /// The mean colour of the `width`×`height` region at (`x`, `y`) of a PNG.
    public static func average(_ png: String, x: Int, y: Int, width: Int, height: Int) throws -> Color {
        let result = try Command.run(["convert", png, "-crop", "\(width)x\(height)+\(x)+\(y)", "+repage",
                                      "-resize", "1x1!", "-depth", "8", "txt:-"])
        // "0,0: (254,0,0)  #FE0000  srgb(254,0,0)"
        guard let open = result.output.firstIndex(of: "("), let close = result.output[open...].firstIndex(of: ")") else {
            throw Command.Failure(command: ["convert", png], result: result)
        }
        let numbers = result.output[result.output.index(after: open)..<close].split(separator: ",")
            .compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard numbers.count >= 3 else { throw Command.Failure(command: ["convert", png], result: result) }
        return Color(r: numbers[0], g: numbers[1], b: numbers[2])
    }

    /// The fraction (0…1) of a PNG's pixels within `fuzz` percent of `hex` ("#e01b24").
    public static func fraction(_ png: String, near hex: String, fuzz: Int = 12) throws -> Double {
        let result = try Command.run(["convert", png, "-alpha", "off", "-fuzz", "\(fuzz)%", "-fill", "black", "+opaque", hex,
                                      "-fill", "white", "-opaque", hex, "-colorspace", "gray", "-format", "%[fx:mean]", "info:"])
        guard let value = Double(result.output.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw Command.Failure(command: ["convert", png], result: result)
        }
        return value
    }

    /// The brightness (0 to 255, grey) of the brightest pixel of the region.
    public static func brightest(_ png: String, x: Int, y: Int, width: Int, height: Int) throws -> Double {
        let result = try Command.run(["convert", png, "-crop", "\(width)x\(height)+\(x)+\(y)", "+repage",
                                      "-colorspace", "Gray", "-format", "%[fx:255*maxima]", "info:"])
        guard let value = Double(result.output.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw Command.Failure(command: ["convert", png], result: result)
        }
        return value
    }

    /// A rectangle on a screenshot, in pixels.
    public struct Box: Sendable, CustomStringConvertible {
        public let x: Int, y: Int, width: Int, height: Int
        public var description: String { "\(width)x\(height)+\(x)+\(y)" }
        public func contains(_ px: Int, _ py: Int) -> Bool { px >= x && px < x + width && py >= y && py < y + height }
    }

    /// The smallest box holding every pixel within `fuzz` percent of `hex` (`matching`) or,
    /// with `matching` false, every pixel that is not; nil when there is none. `within`: only
    /// that part of the screenshot is looked at (the box is still in the screenshot's pixels).
    public static func bounds(_ png: String, of hex: String, matching: Bool = true, within: Box? = nil,
                              fuzz: Int = 4) throws -> Box? {
        // A mask, white where the colour is (or is not), framed in black so the trim box is
        // measured against black whatever the corners hold.
        let (inside, outside) = matching ? ("white", "black") : ("black", "white")
        let crop = within.map { ["-crop", $0.description, "+repage"] } ?? []
        let result = try Command.run(["convert", png] + crop + ["-alpha", "off", "-fuzz", "\(fuzz)%", "-fill", outside, "+opaque", hex,
                                      "-fill", inside, "-opaque", hex, "-bordercolor", "black", "-border", "1",
                                      "-format", "%@", "info:"])
        // "WxH+X+Y" of the bordered mask; an all-black mask trims to nothing ("0x0+…" or 1x1).
        let text = result.output.trimmingCharacters(in: .whitespacesAndNewlines)
        let numbers = text.split(whereSeparator: { $0 == "x" || $0 == "+" }).compactMap { Int($0) }
        guard numbers.count == 4, numbers[0] > 1, numbers[1] > 1 else { return nil }
        return Box(x: numbers[2] - 1 + (within?.x ?? 0), y: numbers[3] - 1 + (within?.y ?? 0), width: numbers[0], height: numbers[1])
    }
}
