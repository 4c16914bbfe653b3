import ReelGtk

/// The one place where the player's model reaches the window's parts, and the order they hear
/// of each change in: the player view's own parts have already drawn it (the view made the
/// model and follows it first); then the playback session (the queue and the resume history
/// take in what happened: an end, the next item, a failure); then the window's chrome (title,
/// size, idle inhibitor, speed menu, warnings); then the subtitle and sound menus; last the
/// desktop's remote, which announces what the others have made of it (stopped or not, what
/// plays next).
/// Threading: main thread only.
@MainActor
final class WindowBinding {
    private var token: ObservationToken?

    init(window: PlayerWindow) {
        token = window.playerView.model.observe { [weak window] change in
            guard let window else { return }
            window.session.follow(change)
            window.follow(change)
            window.subtitles?.follow(change)
            window.mpris?.follow(change)
        }
    }
}
