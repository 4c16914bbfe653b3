import CGtk
import ReelEngine
import ReelGtk

/// The player's keys, handled before focused widgets see them (Space must not press a focused
/// button). The shortcuts window (ui/shortcuts.ui) lists the same keys.
/// Threading: main thread only.
@MainActor
struct KeyboardShortcuts {
    unowned let window: PlayerWindow
    static let seekStep = 5.0
    static let longSeekStep = 10.0
    static let fineSeekStep = 1.0
    static let volumeStep = 0.05

    /// Handles `keyval` with modifiers `state`; true when it was ours.
    func handle(_ keyval: UInt32, _ state: GdkModifierType) -> Bool {
        let view = window.playerView
        let player = view.player
        let control = state.rawValue & GDK_CONTROL_MASK.rawValue != 0
        let shift = state.rawValue & GDK_SHIFT_MASK.rawValue != 0
        let alt = state.rawValue & GDK_ALT_MASK.rawValue != 0
        if control || alt { return false }   // Ctrl+O, Ctrl+Q… are accelerators of actions
        let key = gdk_keyval_to_lower(keyval)
        func seek(by delta: Double) {
            guard player.state.hasMedia else { return }
            let target = min(max(0, player.position + delta), player.duration ?? .infinity)
            player.seek(to: target, mode: .exact)
        }
        switch Int32(key) {
        case GDK_KEY_space, GDK_KEY_k:
            player.togglePause()
        case GDK_KEY_Left:
            seek(by: shift ? -Self.fineSeekStep : -Self.seekStep)
        case GDK_KEY_Right:
            seek(by: shift ? Self.fineSeekStep : Self.seekStep)
        case GDK_KEY_j:
            seek(by: -Self.longSeekStep)
        case GDK_KEY_l:
            seek(by: Self.longSeekStep)
        case GDK_KEY_period:
            player.stepForward()
        case GDK_KEY_comma:
            window.stepBackward()
        case GDK_KEY_Home:
            if player.state.hasMedia { player.seek(to: 0, mode: .exact) }
        case GDK_KEY_End:
            if let d = player.duration, player.state.hasMedia { player.seek(to: d, mode: .exact) }
        case GDK_KEY_Up:
            player.setVolume(min(1, player.volume + Self.volumeStep))
        case GDK_KEY_Down:
            player.setVolume(max(0, player.volume - Self.volumeStep))
        case GDK_KEY_bracketleft:
            window.changeSpeed(faster: false)
        case GDK_KEY_bracketright:
            window.changeSpeed(faster: true)
        case GDK_KEY_BackSpace:
            window.changeSpeed(faster: nil)
        case GDK_KEY_m:
            player.setMuted(!player.isMuted)
        case GDK_KEY_f, GDK_KEY_F11:
            window.toggleFullscreen()
        case GDK_KEY_Escape:
            guard window.isFullscreen else { return false }
            window.toggleFullscreen()
        case GDK_KEY_i:
            window.toggleInfo()
        case GDK_KEY_z:
            // Subtitles 50 ms earlier; Shift: the sound.
            if shift { window.subtitles?.stepAudioDelay(-1) } else { window.subtitles?.stepSubtitleDelay(-1) }
        case GDK_KEY_x:
            if shift { window.subtitles?.stepAudioDelay(+1) } else { window.subtitles?.stepSubtitleDelay(+1) }
        case GDK_KEY_v:
            window.subtitles?.cycle()
        case GDK_KEY_greater, GDK_KEY_AudioNext:
            window.queue.next()
        case GDK_KEY_less, GDK_KEY_AudioPrev:
            window.queue.previous()
        case GDK_KEY_AudioPlay:
            player.togglePause()
        case GDK_KEY_AudioPause:
            player.pause()
        case GDK_KEY_AudioStop:
            window.queue.stop()
        default:
            return false
        }
        return true
    }
}
