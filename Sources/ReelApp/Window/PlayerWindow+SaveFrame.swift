import CGtk
import Foundation
import ReelEngine
import ReelGtk

/// Saving the picture on screen as a PNG file.
/// Threading: main thread only; the file is written on a thread of its own.
extension PlayerWindow {
    /// Ctrl+S: the frame on screen, at the video's own size (square pixels), as a PNG, turned,
    /// mirrored, cropped and coloured as it is shown (zoom and pan only frame the view). The frame is
    /// taken when the key is pressed, so playing on while the dialog is up is fine.
    func saveFrame(withSubtitles: Bool) {
        guard let frame = playerView.movie.shown else { return }
        let player = withSubtitles ? playerView.tracks : nil
        let rotation = playerView.movie.rotation
        let transform = playerView.model.shape.transform
        let equalizer = playerView.model.equalizer
        let info = playerView.model.mediaInfo
        let base = ((info?.sourceName).map { ($0 as NSString).deletingPathExtension } ?? "Reel")
            .replacingOccurrences(of: "/", with: "-")
        let time = TimeText.elapsed(frame.pts, reference: info?.duration).replacingOccurrences(of: ":", with: ".")
        OpenDialogs.choosePNGDestination(parent: window, suggestedName: "\(base) \(time).png") { path in
            // Converting and compressing a large frame takes a noticeable moment: not on the
            // main thread, where it would stall the picture and the controls.
            Thread.detachNewThread {
                do {
                    let png = try player.map { player in
                        try frame.pngData(rotation: rotation, transform: transform, equalizer: equalizer) {
                            player.subtitleImage(at: frame.pts, width: $0, height: $1)
                        }
                    } ?? frame.pngData(rotation: rotation, transform: transform, equalizer: equalizer)
                    try png.write(to: URL(fileURLWithPath: path.hasSuffix(".png") ? path : path + ".png"))
                } catch {
                    FileHandle.standardError.write(Data("reel: cannot save the picture to \(path): \(error)\n".utf8))
                }
            }
        }
    }
}
