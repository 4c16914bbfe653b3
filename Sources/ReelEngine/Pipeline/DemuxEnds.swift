/// The end of a session's packets when they come from more than one demuxer (the media and a
/// sound file of its own): reported once both have ended for the same serial (a seek's), with
/// the first error either had.
/// Threading: a value type, kept under a lock by `Session`.
struct DemuxEnds {
    let sources: Int
    private var serial = -1
    private var count = 0
    private var error: PlayerError?

    init(sources: Int) { self.sources = sources }

    /// Nil until the last demuxer ended for `serial`; an end for an earlier serial is stale.
    mutating func ended(serial ended: Int, error failure: PlayerError?) -> (serial: Int, error: PlayerError?)? {
        if ended > serial { serial = ended; count = 0; error = nil }
        guard ended == serial else { return nil }
        count += 1
        if error == nil { error = failure }
        return count == sources ? (serial, error) : nil
    }
}
