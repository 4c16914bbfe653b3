import CGtk
import ReelEngine
import ReelGtk

/// Every key of the window as a named action (`win.NAME`, also reachable from menus and over
/// D-Bus) with its accelerators, in one table; the shortcuts window (ui/shortcuts.ui) lists
/// the same keys, and a test holds the two together. GTK's application accelerators run in
/// the capture phase, before a focused widget: Space never presses a focused button.
/// Threading: main thread only.
@MainActor
struct KeyAction {
    let name: String
    let accelerators: [String]
    let run: @MainActor (PlayerWindow) -> Void

    static let seekStep = 5.0
    static let longSeekStep = 10.0
    static let fineSeekStep = 1.0
    static let volumeStep = 0.05

    /// The window's keys. ← and → held down scan instead (HeldArrowKeys, which sees the repeats
    /// before these do).
    static let window: [KeyAction] = [
        KeyAction(name: "toggle-pause", accelerators: ["space", "k", "XF86AudioPlay"]) { $0.playerView.player.togglePause() },
        KeyAction(name: "pause", accelerators: ["XF86AudioPause"]) { $0.playerView.player.pause() },
        KeyAction(name: "seek-backward", accelerators: ["Left"]) { seek($0, by: -seekStep) },
        KeyAction(name: "seek-forward", accelerators: ["Right"]) { seek($0, by: seekStep) },
        KeyAction(name: "seek-backward-fine", accelerators: ["<Shift>Left"]) { seek($0, by: -fineSeekStep) },
        KeyAction(name: "seek-forward-fine", accelerators: ["<Shift>Right"]) { seek($0, by: fineSeekStep) },
        KeyAction(name: "jump-backward", accelerators: ["j"]) { seek($0, by: -longSeekStep) },
        KeyAction(name: "jump-forward", accelerators: ["l"]) { seek($0, by: longSeekStep) },
        KeyAction(name: "step-backward", accelerators: ["comma"]) { $0.stepBackward() },
        KeyAction(name: "step-forward", accelerators: ["period"]) { $0.playerView.player.stepForward() },
        KeyAction(name: "go-to-start", accelerators: ["Home"]) { window in
            if window.playerView.model.hasMedia { window.playerView.seek(to: 0) }
        },
        KeyAction(name: "go-to-end", accelerators: ["End"]) { window in
            let model = window.playerView.model
            if let end = model.duration, model.hasMedia { window.playerView.seek(to: end) }
        },
        KeyAction(name: "volume-up", accelerators: ["Up"]) { changeVolume($0, by: volumeStep) },
        KeyAction(name: "volume-down", accelerators: ["Down"]) { changeVolume($0, by: -volumeStep) },
        KeyAction(name: "mute", accelerators: ["m"]) { window in
            let sound = window.playerView.model.sound
            window.playerView.player.setMuted(!sound.isMuted)
            window.playerView.billboard.volume(sound.volume, muted: !sound.isMuted)
        },
        KeyAction(name: "slower", accelerators: ["bracketleft"]) { $0.changeSpeed(faster: false) },
        KeyAction(name: "faster", accelerators: ["bracketright"]) { $0.changeSpeed(faster: true) },
        KeyAction(name: "normal-speed", accelerators: ["BackSpace"]) { $0.changeSpeed(faster: nil) },
        KeyAction(name: "fullscreen", accelerators: ["f", "F11"]) { $0.toggleFullscreen() },
        // Enabled only in fullscreen: elsewhere Escape stays free for whatever has the focus.
        KeyAction(name: "leave-fullscreen", accelerators: ["Escape"]) { $0.setFullscreen(false) },
        KeyAction(name: "toggle-info", accelerators: ["i"]) { $0.toggleInfo() },
        // VLC's key for it.
        KeyAction(name: "go-to-time", accelerators: ["<Control>j"]) { $0.goToTime() },
        KeyAction(name: "previous-chapter", accelerators: ["Page_Up"]) { $0.stepChapter(forward: false) },
        KeyAction(name: "next-chapter", accelerators: ["Page_Down"]) { $0.stepChapter(forward: true) },
        // mpv's l is the A-B loop; here l jumps forward (YouTube's), so the loop is Shift+L.
        KeyAction(name: "ab-loop", accelerators: ["<Shift>l"]) { $0.cycleLoop() },
        // mpv's key for it: auto, on, off.
        KeyAction(name: "cycle-deinterlace", accelerators: ["d"]) { $0.cycleDeinterlace() },
        // The picture's shape: GNOME Image Viewer's keys to turn, mpv's to zoom, pan and cycle
        // the aspect; Alt+Backspace puts it all back.
        KeyAction(name: "rotate-clockwise", accelerators: ["<Control>r"]) { $0.picture?.rotate(by: 1) },
        KeyAction(name: "rotate-anticlockwise", accelerators: ["<Control><Shift>r"]) { $0.picture?.rotate(by: -1) },
        KeyAction(name: "cycle-aspect", accelerators: ["<Shift>a"]) { $0.picture?.cycleAspect() },
        KeyAction(name: "zoom-in", accelerators: ["<Alt>plus", "<Alt>equal"]) { $0.picture?.zoom(by: 1) },
        KeyAction(name: "zoom-out", accelerators: ["<Alt>minus"]) { $0.picture?.zoom(by: -1) },
        KeyAction(name: "pan-left", accelerators: ["<Alt>Left"]) { $0.picture?.pan(x: 1, y: 0) },
        KeyAction(name: "pan-right", accelerators: ["<Alt>Right"]) { $0.picture?.pan(x: -1, y: 0) },
        KeyAction(name: "pan-up", accelerators: ["<Alt>Up"]) { $0.picture?.pan(x: 0, y: 1) },
        KeyAction(name: "pan-down", accelerators: ["<Alt>Down"]) { $0.picture?.pan(x: 0, y: -1) },
        // The video equalizer: mpv's keys, each a step down and up.
        KeyAction(name: "contrast-down", accelerators: ["1"]) { $0.colours?.step(.contrast, by: -1) },
        KeyAction(name: "contrast-up", accelerators: ["2"]) { $0.colours?.step(.contrast, by: 1) },
        KeyAction(name: "brightness-down", accelerators: ["3"]) { $0.colours?.step(.brightness, by: -1) },
        KeyAction(name: "brightness-up", accelerators: ["4"]) { $0.colours?.step(.brightness, by: 1) },
        KeyAction(name: "gamma-down", accelerators: ["5"]) { $0.colours?.step(.gamma, by: -1) },
        KeyAction(name: "gamma-up", accelerators: ["6"]) { $0.colours?.step(.gamma, by: 1) },
        KeyAction(name: "saturation-down", accelerators: ["7"]) { $0.colours?.step(.saturation, by: -1) },
        KeyAction(name: "saturation-up", accelerators: ["8"]) { $0.colours?.step(.saturation, by: 1) },
        KeyAction(name: "next-subtitle-track", accelerators: ["v"]) { $0.subtitles?.cycle() },
        // mpv's key for it.
        KeyAction(name: "next-audio-track", accelerators: ["numbersign"]) { $0.subtitles?.cycleAudio() },
        // 50 ms a press.
        KeyAction(name: "subtitles-earlier", accelerators: ["z"]) { $0.subtitles?.stepSubtitleDelay(-1) },
        KeyAction(name: "subtitles-later", accelerators: ["x"]) { $0.subtitles?.stepSubtitleDelay(+1) },
        KeyAction(name: "sound-earlier", accelerators: ["<Shift>z"]) { $0.subtitles?.stepAudioDelay(-1) },
        KeyAction(name: "sound-later", accelerators: ["<Shift>x"]) { $0.subtitles?.stepAudioDelay(+1) },
        KeyAction(name: "next-item", accelerators: ["greater"]) { $0.queue.next() },
        KeyAction(name: "previous-item", accelerators: ["less"]) { $0.queue.previous() },
        // The media keys do what the remote's Next and Previous do: chapters with one
        // chaptered item (RemoteSteps), else the queue.
        KeyAction(name: "media-next", accelerators: ["XF86AudioNext"]) { $0.remoteNext() },
        KeyAction(name: "media-previous", accelerators: ["XF86AudioPrev"]) { $0.remotePrevious() },
        KeyAction(name: "stop", accelerators: ["XF86AudioStop"]) { $0.queue.stop() },
        KeyAction(name: "close", accelerators: ["<Control>w"]) { $0.close() },
    ]

    /// Actions made elsewhere (the application's, and the window's menu items), with their keys.
    static let others: [(action: String, accelerators: [String])] = [
        ("app.quit", ["<Control>q"]),
        ("app.preferences", ["<Control>comma"]),
        ("win.open", ["<Control>o"]),
        ("win.open-url", ["<Control>l"]),
        ("win.save-frame", ["<Control>s"]),
        ("win.save-frame-plain", ["<Control><Shift>s"]),
        // F1: GNOME apps open their help there; Reel has no help pages, the shortcuts are its help.
        ("win.show-help-overlay", ["<Control>question", "F1"]),
        ("win.reset-picture", ["<Alt>BackSpace"]),
        // mpv's w and W step its pan-and-scan; here w toggles between filling and fitting.
        ("win.zoom-to-fill", ["w"]),
    ]

    /// Every detailed action name with its accelerators, for the application to register.
    static var all: [(action: String, accelerators: [String])] {
        window.map { ("win.\($0.name)", $0.accelerators) } + others
    }

    /// Steps the volume (muting stays as it is) and shows where it is now.
    static func changeVolume(_ window: PlayerWindow, by delta: Double) {
        let sound = window.playerView.model.sound
        let level = min(1, max(0, sound.volume + delta))
        window.playerView.player.setVolume(level)
        window.playerView.billboard.volume(level, muted: sound.isMuted)
    }

    static func seek(_ window: PlayerWindow, by delta: Double) {
        window.playerView.seek(by: delta)
    }
}
