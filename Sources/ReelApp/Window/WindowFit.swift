/// The window's size for the picture it opens and its place on the screen, as plain arithmetic:
/// the picture at its own size (small ones enlarged by whole multiples to 640 pixels wide, so
/// they stay crisp), at most 70 % of the work area; never smaller than 640×360, so that on a
/// small or very wide picture the header bar and the controls lie mostly over the black bars,
/// not over the picture; and placed so that its centre stays where it was, inside the work area.
/// Threading: a value type.
struct WindowFit {
    struct Size: Equatable, Sendable {
        var width, height: Double
    }

    struct Rect: Equatable, Sendable {
        var x, y, width, height: Double
        var centre: (x: Double, y: Double) { (x + width / 2, y + height / 2) }
    }

    static let smallestPictureWidth = 640.0
    /// 16:9 at the smallest width: a 640×272 scope picture gets 44 pixels of black above and below.
    static let smallestWindow = Size(width: 640, height: 360)
    static let screenShare = 0.7

    /// The window's size (without its shadow) for a picture of `picture` pixels (square pixels,
    /// upright) on a work area of `area`.
    static func size(for picture: Size, on area: Size) -> Size {
        let largest = Size(width: area.width * screenShare, height: area.height * screenShare)
        let fit = min(largest.width / picture.width, largest.height / picture.height)
        let enlarge = picture.width < smallestPictureWidth ? (smallestPictureWidth / picture.width).rounded(.up) : 1
        let scale = min(enlarge, fit)
        let smallest = Size(width: min(smallestWindow.width, largest.width), height: min(smallestWindow.height, largest.height))
        return Size(width: max(picture.width * scale, smallest.width).rounded(),
                    height: max(picture.height * scale, smallest.height).rounded())
    }

    /// Where a window of `size` goes when it replaces `current`: the same centre, moved as little
    /// as it takes to lie inside `area` (its top-left corner inside it when it cannot fit).
    static func placed(_ size: Size, replacing current: Rect, within area: Rect) -> Rect {
        let centre = current.centre
        func clamp(_ start: Double, _ length: Double, _ areaStart: Double, _ areaLength: Double) -> Double {
            max(areaStart, min(start, areaStart + areaLength - length))
        }
        let x = clamp((centre.x - size.width / 2).rounded(), size.width, area.x, area.width)
        let y = clamp((centre.y - size.height / 2).rounded(), size.height, area.y, area.height)
        return Rect(x: x, y: y, width: size.width, height: size.height)
    }
}
