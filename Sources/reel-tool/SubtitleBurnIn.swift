import Foundation
import ReelCommandLine
import ReelEngine

/// `reel-tool frame --subtitles/--subtitle-track`: gets the player's subtitles ready before the
/// picture is written, waiting for the engine's own events (the file read, the streams read).
/// Threading: main thread; the recorder collects events from the player's control thread.
enum SubtitleBurnIn {
    static func prepare(_ player: Player, log: PlayerEventRecorder, file: String?, track: Int?,
                        charset: String?, size: SubtitleStyle.Size) throws {
        var style = SubtitleStyle()
        style.size = size
        player.setSubtitleStyle(style)
        if let file {
            player.addSubtitleFile(file, charset: charset)
            guard let (event, _) = log.wait(timeout: 30, { event in
                switch event {
                case .subtitleChanged(_, let to): return to?.origin == .external(path: file)
                case .subtitleFileFailed(let path, _): return path == file
                default: return false
                }
            }) else { throw ToolFailure(code: "timeout", message: "the subtitle file was not read within 30 s") }
            if case .subtitleFileFailed(_, let error) = event { throw error }
        }
        if let track {
            guard log.wait(timeout: 60, { event in
                if case .subtitleTracksChanged = event { return !player.subtitlesLoading }
                return false
            }) != nil else { throw ToolFailure(code: "timeout", message: "the subtitle streams were not read within 60 s") }
            guard player.subtitleTracks.contains(where: { $0.id == track && $0.origin == .embedded(streamIndex: track) }) else {
                let known = player.subtitleTracks.compactMap { t -> Int? in
                    if case .embedded(let i) = t.origin { return i } else { return nil }
                }
                throw ToolFailure(code: "usage", message: "no subtitle track \(track) (subtitle streams: \(known.isEmpty ? "none" : known.map(String.init).joined(separator: ", ")))")
            }
            let start = log.count
            player.selectSubtitleTrack(track)
            _ = log.wait(from: start, timeout: 10) { event in
                if case .subtitleChanged = event { return player.selectedSubtitleTrack?.id == track }
                return false
            }
        }
    }
}
