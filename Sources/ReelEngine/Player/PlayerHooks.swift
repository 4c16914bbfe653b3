/// Decisions a host can take part in, called synchronously on the player's control thread.
/// (Notifications go through the event sink; these are the ones that need an answer.)
/// Threading: the closures must be callable from the control thread.
public struct PlayerHooks: Sendable {
    /// Asked before a command changes the state; returning false vetoes the command.
    /// Engine facts (loaded, stalled, ended, failed) are reported, not asked.
    public var shouldChangeState: @Sendable (_ from: PlayerState, _ to: PlayerState) -> Bool
    /// Called once a change is certain, just before it happens.
    public var willChangeState: @Sendable (_ from: PlayerState, _ to: PlayerState) -> Void
    /// The autoplay decision, asked when media is loaded and ready.
    /// Nil: follow `PlayerConfiguration.autoplay`.
    public var shouldStart: (@Sendable (MediaInfo) -> Bool)?

    public init(
        shouldChangeState: @escaping @Sendable (PlayerState, PlayerState) -> Bool = { _, _ in true },
        willChangeState: @escaping @Sendable (PlayerState, PlayerState) -> Void = { _, _ in },
        shouldStart: (@Sendable (MediaInfo) -> Bool)? = nil
    ) {
        self.shouldChangeState = shouldChangeState
        self.willChangeState = willChangeState
        self.shouldStart = shouldStart
    }
}
