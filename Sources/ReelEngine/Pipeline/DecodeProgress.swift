/// Tells the control loop that decoding moved on, so that it sleeps while it waits for a
/// step's picture or for the queues to fill again after a stall instead of looking every few
/// milliseconds: once armed, the next picture or sound decoded (or the end of either) is
/// reported once; the end of either stream is reported whether armed or not, since the end of
/// the media, the gapless chaining and the landing of a stream that ends wait for it.
/// Threading: `arm` from the control thread; `decoded`/`ended` from the decoder threads.
final class DecodeProgress: Sendable {
    private let armed = Locked(false)
    private let report: @Sendable (_ ended: Bool) -> Void

    init(report: @escaping @Sendable (_ ended: Bool) -> Void) { self.report = report }

    /// The next picture or sound decoded is reported (once).
    func arm() { armed.withLock { $0 = true } }

    /// A picture or sound was queued.
    func decoded() {
        let fire = armed.withLock { was in defer { was = false }; return was }
        if fire { report(false) }
    }

    /// A decoder delivered its last picture or sound for the serial it decodes.
    func ended() {
        armed.withLock { $0 = false }
        report(true)
    }
}
