/// What some players can do beyond `PlaybackController`, each a small protocol that a front
/// end looks up once when it is given a player (never by casting to a concrete player), so
/// that another player (a cast target, a recorded session) plugs in with what it has.
/// Threading: as the conforming player's own (`Player` and `InterstitialPlayer`: any thread).

/// Breaks (interstitials): other media played in the middle of what is open, after which it
/// goes on where it stopped.
public protocol BreakScheduling: AnyObject, Sendable {
    /// Plays `source` when the open media reaches `seconds` (0: before it starts).
    func schedule(_ source: MediaSource, at seconds: Double)
    /// Drops the breaks not yet played (they belong to the media they were scheduled in).
    func clearSchedule()
    /// A break plays now, and the media it interrupts waits.
    var isSuspended: Bool { get }
}

extension InterstitialPlayer: BreakScheduling {}
