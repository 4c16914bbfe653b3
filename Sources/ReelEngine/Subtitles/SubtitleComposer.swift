import Foundation

/// Draws a decoded track's subtitles for a moment at a size: text through libass, bitmap
/// subtitles scaled from their canvas. Keeps the last picture, so asking again for an
/// unchanged moment (most frames of a film) costs no drawing.
/// Threading: any thread; one lock serialises libass, which is not thread-safe.
final class SubtitleComposer: @unchecked Sendable {
    // Safe: `ass` and `last` are only touched with `lock` held.
    private let lock = NSLock()
    private var ass: AssRenderer?
    private var last: (key: Key, image: SubtitleImage?)?
    private var drawn = 0

    private struct Key: Equatable {
        var track: Int, width: Int, height: Int, style: SubtitleStyle, cues: [Int], lift: Double
    }

    func image(of decoded: DecodedSubtitles, at time: Double, width: Int, height: Int,
               videoWidth: Int, videoHeight: Int, style: SubtitleStyle, lift: Double = 0) -> SubtitleImage? {
        guard width > 0, height > 0, width * height <= 8192 * 8192 else { return nil }
        lock.lock()
        defer { lock.unlock() }
        if decoded.track.isBitmap {
            let active = decoded.cues.indices.filter { decoded.cues[$0].start <= time && time < decoded.cues[$0].end }
            let key = Key(track: decoded.track.id, width: width, height: height, style: style, cues: active, lift: 0)
            if let last, last.key == key { return last.image }
            let image = drawBitmaps(decoded, active, width: width, height: height, videoWidth: videoWidth, videoHeight: videoHeight)
            last = (key, numbered(image))
            return last?.image
        }
        if ass == nil { ass = AssRenderer() }
        guard let ass else { return nil }
        ass.load(decoded, style: style)
        let key = Key(track: decoded.track.id, width: width, height: height, style: style, cues: [], lift: lift)
        let (image, changed) = ass.render(at: time, width: width, height: height,
                                          videoWidth: videoWidth, videoHeight: videoHeight, lift: lift)
        if !changed, let last, last.key == key { return last.image }
        last = (key, numbered(image))
        return last?.image
    }

    private func numbered(_ image: SubtitleImage?) -> SubtitleImage? {
        guard var image else { return nil }
        drawn += 1
        image.id = drawn
        return image
    }

    /// Forgets the kept picture (the track's cues changed under the same id).
    func invalidate() {
        lock.lock(); last = nil; ass = nil; lock.unlock()
    }

    private func drawBitmaps(_ decoded: DecodedSubtitles, _ active: [Int], width: Int, height: Int,
                             videoWidth: Int, videoHeight: Int) -> SubtitleImage? {
        guard !active.isEmpty else { return nil }
        // Positions refer to the stream's canvas (a DVD's 720×576, a Blu-ray's 1920×1080).
        let canvasWidth = decoded.canvasWidth > 0 ? decoded.canvasWidth : max(1, videoWidth)
        let canvasHeight = decoded.canvasHeight > 0 ? decoded.canvasHeight : max(1, videoHeight)
        let sx = Double(width) / Double(canvasWidth), sy = Double(height) / Double(canvasHeight)
        var image = SubtitleImage(width: width, height: height)
        for index in active {
            guard case .bitmaps(let bitmaps) = decoded.cues[index].content else { continue }
            for b in bitmaps {
                let rect = (x: Int((Double(b.x) * sx).rounded()), y: Int((Double(b.y) * sy).rounded()),
                            w: max(1, Int((Double(b.width) * sx).rounded())), h: max(1, Int((Double(b.height) * sy).rounded())))
                image.draw(b, into: rect)
            }
        }
        return image.boundsRect.w > 0 ? image : nil
    }
}
