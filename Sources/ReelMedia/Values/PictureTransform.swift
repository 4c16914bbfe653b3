/// How the person wants the picture shaped, apart from how large it is drawn: a crop of the
/// decoded picture, an aspect to show it at, turns and a mirror. Remembered per file (a phone
/// clip turned once stays turned), unlike zoom and pan, which belong to one viewing.
/// Threading: a value type.
public struct PictureTransform: Sendable, Hashable, Codable {
    /// The part of the decoded picture to show, in its pixels (nil: all of it).
    public var crop: PixelRect?
    public var aspect: AspectOverride
    /// Quarter turns clockwise added to the stream's own rotation, 0...3.
    public var turns: Int
    /// Mirrored left to right as shown (after turning), as a mirror held beside the screen.
    public var flipped: Bool

    public init(crop: PixelRect? = nil, aspect: AspectOverride = .auto, turns: Int = 0, flipped: Bool = false) {
        self.crop = crop
        self.aspect = aspect
        self.turns = ((turns % 4) + 4) % 4
        self.flipped = flipped
    }

    public static let identity = PictureTransform()
    public var isIdentity: Bool { self == .identity }

    /// Turned a quarter clockwise (`by: 1`) or anticlockwise (`by: -1`). A mirrored picture turns
    /// the other way underneath, so that what the person sees turns the way they asked.
    public func turned(by quarters: Int) -> PictureTransform {
        var t = self
        t.turns = (((turns + (flipped ? -quarters : quarters)) % 4) + 4) % 4
        return t
    }
}

/// An aspect ratio to show the picture at instead of the one its stream declares, as the shown
/// picture's width over its height (after turning): mpv's `video-aspect-override`.
/// Threading: a value type.
public enum AspectOverride: String, Sendable, Codable, CaseIterable {
    case auto
    case wide = "16:9"
    case standard = "4:3"
    case scope = "2.39:1"
    case square = "1:1"
    case portrait = "9:16"

    /// Width over height, or nil for the stream's own.
    public var ratio: Double? {
        switch self {
        case .auto: nil
        case .wide: 16.0 / 9.0
        case .standard: 4.0 / 3.0
        case .scope: 2.39
        case .square: 1
        case .portrait: 9.0 / 16.0
        }
    }

    /// The next in the menu's order, as mpv's `A` cycles.
    public var next: AspectOverride {
        let all = Self.allCases
        return all[(all.firstIndex(of: self)! + 1) % all.count]
    }
}

/// A rectangle of whole pixels. Threading: a value type.
public struct PixelRect: Sendable, Hashable, Codable, CustomStringConvertible {
    public var x: Int, y: Int, width: Int, height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }

    public var description: String { "\(width)x\(height)+\(x)+\(y)" }

    /// This rectangle kept inside a picture of `width`×`height`, or nil when nothing of it is.
    public func clamped(width w: Int, height h: Int) -> PixelRect? {
        let x0 = max(0, x), y0 = max(0, y), x1 = min(w, x + width), y1 = min(h, y + height)
        guard x1 > x0, y1 > y0 else { return nil }
        return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
}

/// A part of a picture in its pixels, fractional where a zoom cuts through pixels: what a
/// cropped or zoomed picture shows of itself. Threading: a value type.
public struct SourceRegion: Sendable, Equatable, CustomStringConvertible {
    public var x: Double, y: Double, width: Double, height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }

    public var description: String { "\(width)x\(height)+\(x)+\(y)" }

    /// Whether this is the whole of a `width`×`height` picture.
    public func isWhole(width w: Int, height h: Int) -> Bool {
        x == 0 && y == 0 && width == Double(w) && height == Double(h)
    }

    /// The whole pixels it touches, within `width`×`height`, with the origin and size on the
    /// chroma grid (`alignX`, `alignY`: 1, 2 or 4) for converters that cannot take fractions.
    public func pixels(width w: Int, height h: Int, alignX: Int = 1, alignY: Int = 1) -> PixelRect {
        func span(_ start: Double, _ length: Double, _ limit: Int, _ align: Int) -> (Int, Int) {
            let first = max(0, Int(start.rounded(.down)) / align * align)
            let end = min(limit, (Int((start + length).rounded(.up)) + align - 1) / align * align)
            return (first, max(align, end - first))
        }
        let (x0, cw) = span(x, width, w, alignX), (y0, ch) = span(y, height, h, alignY)
        return PixelRect(x: x0, y: y0, width: min(cw, w - x0), height: min(ch, h - y0))
    }
}
