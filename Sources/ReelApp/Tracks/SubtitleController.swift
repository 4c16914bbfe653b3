import CGtk
import Foundation
import ReelEngine
import ReelGtk

/// The window's subtitle controls: the Subtitles menu (tracks with language names, add a file,
/// delays), keys, dropping subtitle files, the style from preferences, the preferred languages
/// and the choice remembered per file; and the Audio menu beside it (AudioTrackMenu).
/// Threading: main thread only.
@MainActor
final class SubtitleController {
    static let delayStep = 0.05
    /// How long a subtitle file's problem stays in the notice.
    static let noticeSeconds = 1.5

    private let player: TrackSelection
    /// What the player is doing and which tracks it has (its model, never its own state).
    private let model: PlayerModel
    private let settings: PlayerSettings
    private let parent: UnsafeMutablePointer<GtkWidget>
    private let trackItems: OpaquePointer?
    private let audioMenu: AudioTrackMenu
    private var trackAction: OpaquePointer?
    /// The media whose choice is remembered, and whether its remembered choice was applied.
    private var mediaPath: String?
    private var restored = false
    /// The delays last asked for: quick key presses step from them, not from the engine's
    /// answer to the previous press, which may not have arrived yet.
    private var subtitleDelay = 0.0
    private var audioDelay = 0.0
    /// The tracks the menu lists.
    private var shownTracks: [SubtitleTrack] = []
    /// Draws the picture again (the subtitles over it changed).
    var redraw: (@MainActor () -> Void)?
    /// Shows what changed (a track, a delay), briefly, over the picture (the billboard); the
    /// second argument: the sound's change (its icon), not the subtitles'.
    var say: (@MainActor (String, _ sound: Bool) -> Void)?
    /// Tells of a problem (the window's notice, which stays longer).
    var warn: (@MainActor (String) -> Void)?

    init?(window: UnsafeMutablePointer<GtkWidget>, model: PlayerModel, tracks: TrackSelection?, settings: PlayerSettings,
          trackItems: OpaquePointer?, audioItems: OpaquePointer?) {
        guard let tracks else { return nil }
        self.player = tracks
        self.model = model
        self.settings = settings
        self.parent = window
        self.trackItems = trackItems
        audioMenu = AudioTrackMenu(window: window, player: tracks, items: audioItems)
        audioMenu.chosen = { [weak self] index in
            guard let self, let mediaPath = self.mediaPath else { return }
            self.settings.rememberAudioChoice(index, for: mediaPath)
        }
        installActions(on: window.raw)
        applySettings()
        settings.observe { [weak self] key in
            guard let self else { return }
            if PlayerSettings.subtitleStyleKeys.contains(key) {
                self.player.setSubtitleStyle(settings.subtitleStyle)
                self.redraw?()
            }
            if key == .subtitleLanguages { self.player.setPreferredSubtitleLanguages(settings.subtitleLanguages) }
            if key == .subtitleCharset { self.player.setSubtitleCharset(settings.subtitleCharset) }
            if key == .audioLanguages { self.player.setPreferredAudioLanguages(settings.audioLanguages) }
        }
        rebuildMenu([])
    }

    private func applySettings() {
        player.setSubtitleStyle(settings.subtitleStyle)
        player.setPreferredSubtitleLanguages(settings.subtitleLanguages)
        player.setSubtitleCharset(settings.subtitleCharset)
        player.setPreferredAudioLanguages(settings.audioLanguages)
    }

    /// Before media opens: the audio stream remembered for it, if any, is played from the start.
    func willOpen(_ source: MediaSource) {
        // Nothing is remembered for it until it is loaded.
        mediaPath = nil
        player.preferAudioStream(settings.audioChoice(for: source.description))
    }

    /// The subtitles over a picture, for the movie view.
    func image(at time: Double, width: Int, height: Int) -> SubtitleImage? {
        player.subtitleImage(at: time, width: width, height: height, lift: lift)
    }

    /// Percent of the picture's height the bottom subtitles move up (the controls are showing).
    var lift = 0.0 {
        didSet { if lift != oldValue { redraw?() } }
    }

    // MARK: Following the player

    /// What a change of the player's model means for the menus, the remembered choices and
    /// the billboard.
    func follow(_ change: PlayerModel.Change) {
        switch change.moment {
        case .loaded(let info):
            // Opened again for another audio stream: the same file, its choice already applied.
            let reopened = mediaPath == info.source
            if !reopened { restored = false }
            mediaPath = info.source
            audioMenu.rebuild(info)
            // Opened again with a sound file of its own (Add Audio File…): it says which.
            if reopened, let index = info.selectedAudioStream, ExternalAudio.isExternal(index),
               let playing = info.stream(at: index) {
                say?(String(format: tr("Audio: %@"), AudioTrackMenu.label(of: playing, in: info)), true)
            }
        case .audioStreamChanged:
            guard let info = model.mediaInfo else { break }
            audioMenu.rebuild(info)
            if let playing = info.streams.first(where: { $0.index == info.selectedAudioStream }) {
                say?(String(format: tr("Audio: %@"), AudioTrackMenu.label(of: playing, in: info)), true)
            }
        case .subtitleChosen(let to):
            if let trackAction { g_simple_action_set_state(trackAction, g_variant_new_string(to.map { String($0.id) } ?? "off")) }
            // What the person (or the remembered choice) picked is remembered; the automatic
            // choice while loading is not a choice.
            if restored, let mediaPath {
                settings.rememberSubtitleChoice(Self.key(for: to), for: mediaPath)
                say?(String(format: tr("Subtitles: %@"), to?.displayName ?? tr("Off")), false)
            }
            redraw?()
        case .subtitleDelayChanged(let d):
            say?(String(format: tr("Subtitle delay: %@"), Self.delayText(d)), false)
            subtitleDelay = d
            redraw?()
        case .audioDelayChanged(let d):
            say?(String(format: tr("Audio delay: %@"), Self.delayText(d)), true)
            audioDelay = d
        case .subtitleFileFailed(let path, let error):
            FileHandle.standardError.write(Data("reel: subtitles \(path): \(error.message)\n".utf8))
            warn?(error.message)
        default:
            break
        }
        // The tracks known now (said again as files are read): the menu, and once all are
        // known the choice remembered for the file.
        if change.contains(.subtitles), change.moment == nil {
            if model.subtitles.tracks != shownTracks {
                shownTracks = model.subtitles.tracks
                rebuildMenu(shownTracks)
            }
            restoreChoice(shownTracks)
        }
    }

    private static func key(for track: SubtitleTrack?) -> String {
        guard let track else { return "off" }
        switch track.origin {
        case .embedded(let index): return "stream:\(index)"
        case .external(let path): return "file:\(path)"
        }
    }

    /// Once every track is known, the choice remembered for this file wins over the automatic one.
    private func restoreChoice(_ tracks: [SubtitleTrack]) {
        guard !restored, !player.subtitlesLoading, let mediaPath else { return }
        restored = true
        guard let choice = settings.subtitleChoice(for: mediaPath) else { return }
        if choice == "off" { player.selectSubtitleTrack(nil); return }
        if choice.hasPrefix("file:") {
            let path = String(choice.dropFirst(5))
            if let track = tracks.first(where: { $0.origin == .external(path: path) }) { player.selectSubtitleTrack(track.id) }
            else if FileManager.default.fileExists(atPath: path) { player.addSubtitleFile(path) }
            return
        }
        if let track = tracks.first(where: { Self.key(for: $0) == choice }) { player.selectSubtitleTrack(track.id) }
    }

    // MARK: Menu and actions

    private func rebuildMenu(_ tracks: [SubtitleTrack]) {
        guard let trackItems else { return }
        g_menu_remove_all(trackItems)
        // Translators: the subtitle menu's item for no subtitles.
        let off = g_menu_item_new(tr("Off"), nil)!
        g_menu_item_set_action_and_target_value(off, "win.subtitle-track", g_variant_new_string("off"))
        g_menu_append_item(trackItems, off)
        g_object_unref(off.raw.cast(to: GObject.self))
        for track in tracks {
            var label = track.displayName
            // Translators: after a subtitle track's name in the menu: its subtitles are pictures, not text.
            if track.isBitmap { label += tr(" (pictures)") }
            if case .external = track.origin, LanguageNames.name(for: track.language) != nil {
                label += " — " + ((track.origin.path as NSString?)?.lastPathComponent ?? "")
            }
            let item = g_menu_item_new(label, nil)!
            g_menu_item_set_action_and_target_value(item, "win.subtitle-track", g_variant_new_string(String(track.id)))
            g_menu_append_item(trackItems, item)
            g_object_unref(item.raw.cast(to: GObject.self))
        }
    }

    private func installActions(on group: UnsafeMutableRawPointer) {
        let type = g_variant_type_new("s")
        defer { g_variant_type_free(type) }

        let action = g_simple_action_new_stateful("subtitle-track", type, g_variant_new_string("off"))!
        Signal.connectAction(action.raw) { [weak self] parameter in
            guard let self, let parameter else { return }
            let value = String(cString: g_variant_get_string(parameter, nil))
            self.player.selectSubtitleTrack(Int(value))
        }
        g_action_map_add_action(OpaquePointer(group), action)
        g_object_unref(action.raw.cast(to: GObject.self))
        trackAction = action

        Actions.add(group, "add-subtitle") { [weak self] in self?.chooseFile() }
        Actions.addWithString(group, "add-subtitle-file") { [weak self] path in self?.player.addSubtitleFile(path) }
        Actions.add(group, "cycle-subtitles") { [weak self] in self?.cycle() }
        Actions.add(group, "subtitle-delay-later") { [weak self] in self?.stepSubtitleDelay(+1) }
        Actions.add(group, "subtitle-delay-earlier") { [weak self] in self?.stepSubtitleDelay(-1) }
        Actions.add(group, "subtitle-delay-reset") { [weak self] in self?.stepSubtitleDelay(0) }
        Actions.add(group, "audio-delay-later") { [weak self] in self?.stepAudioDelay(+1) }
        Actions.add(group, "audio-delay-earlier") { [weak self] in self?.stepAudioDelay(-1) }
        Actions.add(group, "audio-delay-reset") { [weak self] in self?.stepAudioDelay(0) }
    }

    /// "+100 ms", "−50 ms", "0 ms".
    static func delayText(_ seconds: Double) -> String {
        let ms = Int((seconds * 1000).rounded())
        return ms == 0 ? "0 ms" : (ms > 0 ? "+\(ms) ms" : "−\(-ms) ms")
    }

    func stepSubtitleDelay(_ direction: Int) {
        subtitleDelay = direction == 0 ? 0 : subtitleDelay + Double(direction) * Self.delayStep
        player.setSubtitleDelay(subtitleDelay)
    }

    func stepAudioDelay(_ direction: Int) {
        audioDelay = direction == 0 ? 0 : audioDelay + Double(direction) * Self.delayStep
        player.setAudioDelay(audioDelay)
    }

    /// The next audio stream, in turn (a key).
    func cycleAudio() {
        if let info = model.mediaInfo { audioMenu.chooseNext(in: info) }
    }

    /// Off, then each track in turn (the V key).
    func cycle() {
        let tracks = model.subtitles.tracks
        guard !tracks.isEmpty else { return }
        let ids: [Int?] = [nil] + tracks.map(\.id)
        let current = ids.firstIndex { $0 == model.subtitles.selected?.id } ?? 0
        player.selectSubtitleTrack(ids[(current + 1) % ids.count])
    }

    private func chooseFile() {
        OpenDialogs.chooseTrackFile(parent: parent, title: tr("Add Subtitles"), kind: tr("Subtitles"),
                                    suffixes: SubtitleFiles.extensions, acceptingURIs: false) { [weak self] path in
            self?.player.addSubtitleFile(path)
        }
    }

    /// Dropped files that are all subtitle files are added to the playing media rather than
    /// opened (true); anything else is left to the window.
    func accepts(droppedPaths paths: [String]) -> Bool {
        // A break counts as media being open: the film waits under it.
        guard model.hasMedia || model.state == .suspended, !paths.isEmpty, paths.allSatisfy(SubtitleFiles.isSubtitleFile) else { return false }
        for path in paths { player.addSubtitleFile(path) }
        return true
    }
}

/// Which files are subtitle files, by name. Threading: pure functions.
enum SubtitleFiles {
    static let extensions = ["srt", "ass", "ssa", "vtt", "sub", "sup", "smi", "sami", "mpl", "lrc", "ttml", "dfxp", "stl", "jss", "pjs", "rt"]
    static func isSubtitleFile(_ path: String) -> Bool {
        extensions.contains((path as NSString).pathExtension.lowercased())
    }
}

private extension SubtitleTrack.Origin {
    var path: String? { if case .external(let path) = self { path } else { nil } }
}
