import ReelEngine

/// Where a picture goes inside a view: as large as fits with its display aspect ratio kept
/// (sample aspect ratio and rotation applied), centred, the rest letterbox or pillarbox.
/// Threading: a value type.
struct VideoRect: Equatable {
    var x: Int, y: Int, width: Int, height: Int

    /// Fits a picture of `displayWidth`×`displayHeight` (already square-pixel) into a view.
    static func fit(displayWidth: Double, displayHeight: Double, viewWidth: Int, viewHeight: Int) -> VideoRect {
        guard displayWidth > 0, displayHeight > 0, viewWidth > 0, viewHeight > 0 else {
            return VideoRect(x: 0, y: 0, width: max(viewWidth, 0), height: max(viewHeight, 0))
        }
        let scale = min(Double(viewWidth) / displayWidth, Double(viewHeight) / displayHeight)
        let w = min(viewWidth, Int((displayWidth * scale).rounded()))
        let h = min(viewHeight, Int((displayHeight * scale).rounded()))
        return VideoRect(x: (viewWidth - w) / 2, y: (viewHeight - h) / 2, width: w, height: h)
    }

    /// Where `frame` goes, shown turned `quarterTurns` quarter turns clockwise (an odd number
    /// swaps its displayed width and height).
    static func fit(_ frame: VideoFrame, quarterTurns: Int, viewWidth: Int, viewHeight: Int) -> VideoRect {
        var w = Double(frame.displayWidth), h = Double(frame.height)
        if quarterTurns % 2 == 1 { swap(&w, &h) }
        return fit(displayWidth: w, displayHeight: h, viewWidth: viewWidth, viewHeight: viewHeight)
    }

    /// A display rotation in degrees clockwise as quarter turns 0...3 (other angles: none).
    static func quarterTurns(_ degrees: Int) -> Int {
        guard degrees % 90 == 0 else { return 0 }
        return ((degrees / 90) % 4 + 4) % 4
    }
}
