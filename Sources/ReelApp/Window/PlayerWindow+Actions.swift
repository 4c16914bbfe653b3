import CGtk
import Foundation
import ReelEngine
import ReelGtk

/// The window's actions (menus, keys, D-Bus), its key handling before the accelerators, the
/// speed steps and the shortcuts window.
/// Threading: main thread only.
extension PlayerWindow {
    func installActions() {
        let group = window.raw
        Actions.add(group, "open") { [weak self] in
            guard let self else { return }
            OpenDialogs.chooseFiles(parent: self.window) { [weak self] paths in self?.open(paths) }
        }
        Actions.add(group, "open-url") { [weak self] in
            guard let self else { return }
            OpenDialogs.askForURL(parent: self.window, cache: self.playerView.settings.streamCache,
                                  recent: self.recent?.entries() ?? []) { [weak self] url in self?.open(url) }
        }
        for key in KeyAction.window {
            Actions.add(group, key.name) { [weak self] in
                guard let self else { return }
                key.run(self)
            }
        }
        // The main menu's submenus name these so that GTK shows them as sensitive as the
        // actions are (ActionAvailability); opening a submenu never activates its action.
        for submenu in ["speed-menu", "subtitles-menu", "audio-menu"] { Actions.add(group, submenu) {} }
        Actions.add(group, "chapters") { [weak self] in self?.showChapters() }
        Actions.add(group, "play-demo") { [weak self] in
            if let clip = DataDirectory.demoClip { self?.open(clip) }
        }
        Actions.add(group, "save-frame") { [weak self] in
            self?.saveFrame(withSubtitles: self?.playerView.settings.bool(.savePictureSubtitles) ?? true)
        }
        Actions.add(group, "save-frame-plain") { [weak self] in self?.saveFrame(withSubtitles: false) }
        speedAction = Actions.addNumberChoice(group, "speed", initial: playerView.model.speed) { [weak self] speed in
            self?.requestedSpeed = speed
            self?.playerView.player.setSpeed(speed)
        }
        // A break in what is open: "CLIP@SECONDS" (0: before it). Remote-controllable.
        Actions.addWithString(group, "schedule-break") { [weak self] text in self?.session.scheduleBreak(text) }
        // Saves the picture exactly as drawn (remote-controllable over D-Bus, for checks).
        Actions.addWithString(group, "save-picture") { [weak self] path in
            self?.playerView.movie.snapshot(to: path) { error in
                if let error { FileHandle.standardError.write(Data("reel: \(error)\n".utf8)) }
            }
        }
    }

    /// `[` and `]` step the speed down and up; Backspace returns to normal.
    func changeSpeed(faster: Bool?) {
        let next = faster.map { PlaybackSpeed.step(from: requestedSpeed, faster: $0) } ?? 1
        guard let next else { return }
        requestedSpeed = next
        playerView.player.setSpeed(next)
        playerView.billboard.speed(next)
    }

    func installKeys() {
        let keys = gtk_event_controller_key_new()!
        gtk_event_controller_set_propagation_phase(keys.cast(), GTK_PHASE_CAPTURE)
        // Before the accelerators (KeyAction): the repeats of a held arrow scan instead of
        // stepping 5 s each.
        Signal.connectKey(keys.raw, "key-pressed") { [weak self] keyval, state in
            guard let self else { return false }
            return self.heldArrows.pressed(keyval, state) || self.headerKey(keyval, state)
        }
        Signal.connectKeyReleased(keys.raw, "key-released") { [weak self] keyval, _ in
            self?.heldArrows.released(keyval)
        }
        gtk_widget_add_controller(window, keys.cast())
    }

    func installHelpOverlay() {
        let shortcuts = UIBuilder(.shortcuts)
        gtk_application_window_set_help_overlay(window.cast(), shortcuts.object("shortcuts-window").cast())
    }
}
