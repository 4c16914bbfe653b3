import ReelEngine

/// What a playback session asks of the player in the window: opening items, starting,
/// pausing, seeking, telling it what follows, and its breaks. The window answers with its
/// player view; tests answer with a recorder of the calls.
/// Threading: main thread only.
@MainActor
protocol SessionPlayer: AnyObject {
    /// Opens one item of the queue (the window shows its name as it does).
    func open(_ source: MediaSource, start: Double?, paused: Bool)
    func play()
    func pause()
    /// To exactly this time.
    func seek(to seconds: Double)
    func close()
    /// What follows the current item by itself, prepared ahead (nil: nothing).
    func setNext(_ source: MediaSource?, audioStream: Int?)
    /// Schedules a break in what is open; false when this player has no breaks.
    func scheduleBreak(_ clip: MediaSource, at seconds: Double) -> Bool
    /// Drops the breaks scheduled in the item that is going.
    func clearBreaks()
}
