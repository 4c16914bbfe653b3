import ReelEngine
import ReelGtk

/// The playback session's player and window as the real window provides them: commands go to
/// the player view's player, items open through the view (the window names them first), and
/// notices, presenting and closing go to the window.
/// Threading: main thread only.
@MainActor
final class ViewSessionPlayer: SessionPlayer, SessionWindow {
    private let view: PlayerView
    /// Weak: the window owns the session that holds this.
    private weak var window: PlayerWindow?

    init(view: PlayerView, window: PlayerWindow) {
        self.view = view
        self.window = window
    }

    func open(_ source: MediaSource, start: Double?, paused: Bool) {
        window?.willOpen(source)
        view.open(source, start: start, paused: paused)
        window?.opened()
    }

    func play() { view.player.play() }
    func pause() { view.player.pause() }
    func seek(to seconds: Double) { view.seek(to: seconds) }
    func close() { view.player.close() }
    func setNext(_ source: MediaSource?, audioStream: Int?) { view.player.setNext(source, audioStream: audioStream) }

    func scheduleBreak(_ clip: MediaSource, at seconds: Double) -> Bool {
        guard let breaks = view.breaks else { return false }
        breaks.schedule(clip, at: seconds)
        return true
    }

    func clearBreaks() { view.breaks?.clearSchedule() }

    func notify(_ text: String, actions: [NoticeAction], seconds: Double) {
        window?.notify(text, actions: actions, seconds: seconds)
    }

    func present() { window?.show() }
    func closeWindow() { window?.close() }
}
