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
        let chooser = gtk_file_chooser_native_new(tr("Add a Sound Track"), parent.cast(), GTK_FILE_CHOOSER_ACTION_OPEN,
                                                  tr("_Add"), tr("_Cancel"))!
        let sounds = gtk_file_filter_new()!
        gtk_file_filter_set_name(sounds, tr("Sound files"))
        gtk_file_filter_add_mime_type(sounds, "audio/*")
        gtk_file_chooser_add_filter(chooser.raw.cast(), sounds)
        let all = gtk_file_filter_new()!
        gtk_file_filter_set_name(all, tr("All files"))
        gtk_file_filter_add_pattern(all, "*")
        gtk_file_chooser_add_filter(chooser.raw.cast(), all)
        Signal.connectInt(chooser.raw, "response") { [weak self] response in
            if response == Int(GTK_RESPONSE_ACCEPT.rawValue), let file = gtk_file_chooser_get_file(chooser.raw.cast()) {
                if let path = GString.take(g_file_get_path(file)) ?? GString.take(g_file_get_uri(file)) { self?.player.addAudioFile(path) }
                g_object_unref(file.raw.cast(to: GObject.self))
            }
            g_object_unref(chooser.raw.cast(to: GObject.self))
        }
        gtk_native_dialog_show(chooser.raw.cast())
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
