import CGtk
import Foundation
import ReelEngine
import ReelGtk

/// A sound track from a file of its own, played with the picture (a dubbed language or a
/// commentary downloaded apart): Audio ▸ Add Audio File…, or a sound file dropped on a playing
/// video. It joins the Audio menu's streams, checked, and stays while the video does.
/// Threading: main thread only.
@MainActor
final class AudioFileControl {
    private let parent: UnsafeMutablePointer<GtkWidget>
    private let player: TrackSelection
    private let model: PlayerModel

    init(window: UnsafeMutablePointer<GtkWidget>, player: TrackSelection, model: PlayerModel) {
        parent = window
        self.player = player
        self.model = model
        Actions.add(window.raw, "add-audio") { [weak self] in self?.chooseFile() }
        // For the desktop's remote callers and the tests: the path as the parameter.
        Actions.addWithString(window.raw, "add-audio-file") { [weak self] path in self?.player.addAudioFile(path) }
    }

    /// One sound file dropped on a video that plays is added to it, not opened in its place.
    func accepts(droppedPaths paths: [String]) -> Bool {
        guard model.hasMedia, model.hasVideo, paths.count == 1, let path = paths.first, AudioFiles.isSoundFile(path) else { return false }
        player.addAudioFile(path)
        return true
    }

    private func chooseFile() {
        OpenDialogs.chooseTrackFile(parent: parent, title: tr("Add a Sound Track"), kind: tr("Sound files"),
                                    mimeTypes: ["audio/*"], acceptingURIs: true) { [weak self] path in
            self?.player.addAudioFile(path)
        }
    }
}

/// Which files are sound files, by name as Files judges them (shared-mime-info), playlists
/// of sound left out: they are opened, not added.
/// Threading: pure functions (GIO's content-type lookups are thread-safe).
enum AudioFiles {
    static func isSoundFile(_ path: String) -> Bool {
        guard let type = GString.take(g_content_type_guess(path, nil, 0, nil)),
              let mime = GString.take(g_content_type_get_mime_type(type)) else { return false }
        return mime.hasPrefix("audio/") && !["audio/x-mpegurl", "audio/mpegurl", "audio/x-scpls"].contains(mime)
    }
}
