/// What a playback session asks of the window it plays in: short notices (some with
/// buttons), coming back from the background, and closing once nothing is left to play.
/// Threading: main thread only.
@MainActor
protocol SessionWindow: AnyObject {
    /// Shows `text` for `seconds`, with a button for each action.
    func notify(_ text: String, actions: [NoticeAction], seconds: Double)
    /// Shows the window (again).
    func present()
    /// Closes the window for good: Reel quits with it.
    func closeWindow()
}

/// A button on a notice: its label and what a click does.
/// Threading: main thread only (the action runs there).
struct NoticeAction {
    let label: String
    let run: @MainActor () -> Void
}
