import ReelEngine

/// What the MPRIS remote reaches in the app besides the player: the queue and the window.
/// Threading: main thread only.
@MainActor
protocol MediaPlayerHost: AnyObject {
    /// The path or URL playing (nil when nothing is open).
    var currentSource: MediaSource? { get }
    var canGoNext: Bool { get }
    var canGoPrevious: Bool { get }
    func next()
    func previous()
    var loopMode: LoopMode { get set }
    var shuffle: Bool { get set }
    /// Stop: playing ends and the position goes back to the start (MPRIS's Stop).
    func stop()
    /// Stopped by `stop()` and not played since.
    var isStopped: Bool { get }
    func raise()
    func quit()
    func open(uri: String)

    /// The queue as it stands: its items, their identities, which one is current.
    var queue: PlayQueue { get }
    /// Counts the times the whole queue was replaced by another (opening, restoring).
    var replacements: Int { get }
    /// Plays item `index`.
    func select(_ index: Int)
    /// Takes item `index` out (what follows plays if it was the one playing).
    func remove(at index: Int)
    /// Adds what `names` name before item `position`; returns how many items were added.
    @discardableResult
    func insert(_ names: [String], at position: Int) -> Int
}

/// The window as the remote reaches it: in or out of fullscreen.
/// Threading: main thread only.
@MainActor
protocol MediaPlayerWindow: AnyObject {
    var isFullscreen: Bool { get }
    func setFullscreen(_ on: Bool)
    /// Previous and next as the remote's: chapters with one chaptered item, else the queue's
    /// (`RemoteSteps`).
    var remoteCanGoNext: Bool { get }
    var remoteCanGoPrevious: Bool { get }
    func remoteNext()
    func remotePrevious()
}
