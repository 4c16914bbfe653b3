/// How the control side steers a running video decoder without a flush: a new target ahead of
/// what it has decoded, under a new serial (a retarget). Created with the decoder worker, held
/// by the presentation that decides the retarget; the decoder thread takes it before its next
/// frame. The frame queue it fills only buffers: commands never travel up through it.
/// Threading: any thread; locked.
final class VideoDecoderSteering: Sendable {
    /// A seek handed to the decoder without a flush: its frames labelled `from` are the new
    /// serial's now, and they land at `request.target`.
    struct Retarget: Sendable {
        let from: Int
        let request: SeekRequest
    }

    private let pending = Locked<Retarget?>(nil)

    /// Hands the decoder a new target; posted before the frame queue moves to the new serial,
    /// so a frame the queue refuses as stale finds it here.
    func retarget(_ retarget: Retarget) {
        pending.withLock { $0 = retarget }
    }

    /// The retarget waiting for a decoder whose frames carry serial `from`, taken.
    func take(from serial: Int) -> Retarget? {
        pending.withLock { r in
            guard let found = r, found.from == serial else { return nil }
            r = nil
            return found
        }
    }

    /// A seek that flushes the decoder replaces whatever retarget was waiting.
    func cancel() {
        pending.withLock { $0 = nil }
    }
}
