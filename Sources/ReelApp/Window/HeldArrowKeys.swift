import CGtk
import Foundation
import ReelEngine
import ReelGtk

/// ← and → held down: the first press is the usual 5 s step (KeyAction); once the key
/// has been held for `holdDelay`, its auto-repeats turn into a scan at rising speed, like the
/// rewind and fast-forward buttons held, and the release plays on from where the scan got to.
/// Threading: main thread only.
@MainActor
final class HeldArrowKeys {
    private let scanner: HoldToScan
    private var held: (keyval: UInt32, since: Double)?
    /// Longer than the desktop's usual key-repeat delay (about 0.5 s), so that a tap, or two
    /// quick taps, are still plain 5 s steps.
    static let holdDelay = 0.6

    init(view: PlayerView) { scanner = HoldToScan(player: view.player, model: view.model, seeker: view.seeker) }

    /// True when the press is a repeat of a held arrow and was used for scanning (or swallowed
    /// while waiting for the hold delay, so that repeats do not pile up 5 s steps).
    func pressed(_ keyval: UInt32, _ state: GdkModifierType) -> Bool {
        let key = Int32(gdk_keyval_to_lower(keyval))
        guard key == GDK_KEY_Left || key == GDK_KEY_Right,
              state.rawValue & (GDK_CONTROL_MASK.rawValue | GDK_ALT_MASK.rawValue | GDK_SHIFT_MASK.rawValue) == 0
        else { return false }
        let now = Clock.now
        guard let held, held.keyval == UInt32(key) else {
            if scanner.isScanning { scanner.release() }
            self.held = (UInt32(key), now)
            return false   // the first press: an ordinary step
        }
        if !scanner.isScanning, now - held.since >= Self.holdDelay {
            scanner.press(forward: key == GDK_KEY_Right, now: now, skipsOnClick: false)
        }
        return true
    }

    func released(_ keyval: UInt32) {
        let key = UInt32(gdk_keyval_to_lower(keyval))
        guard let held, held.keyval == key else { return }
        self.held = nil
        if scanner.isScanning { scanner.release() }
    }
}
