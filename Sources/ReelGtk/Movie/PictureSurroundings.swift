/// The parts of a view around a picture's rectangle (the black bars): at most four rectangles
/// that, with the picture's, tile the view without overlapping. The Wayland subsurface paints
/// only these black, and the picture straight into the rest.
/// Threading: a value type.
struct PictureSurroundings: Equatable {
    let bars: [VideoRect]

    /// Around `picture` (cut to the view) in a view of `width`×`height`: the full-width bands
    /// above and below, then the parts left and right at the picture's height.
    init(of picture: VideoRect, inWidth width: Int, height: Int) {
        let left = min(max(picture.x, 0), width), top = min(max(picture.y, 0), height)
        let right = max(min(picture.x + picture.width, width), left)
        let bottom = max(min(picture.y + picture.height, height), top)
        let candidates = [
            VideoRect(x: 0, y: 0, width: width, height: top),
            VideoRect(x: 0, y: bottom, width: width, height: height - bottom),
            VideoRect(x: 0, y: top, width: left, height: bottom - top),
            VideoRect(x: right, y: top, width: width - right, height: bottom - top),
        ]
        bars = candidates.filter { $0.width > 0 && $0.height > 0 }
    }
}
