import CLinux
import Foundation

/// Looks for black bars in a file: the key frames at six points from a tenth to nine tenths of
/// its length, each read by a reader of its own (a format context and a one-thread decoder that
/// share nothing with playback), on a low-priority thread, as the hover previews are; the
/// findings combined by `BlackBars.crop`. Local files only: a stream's bytes are the player's.
/// Threading: `start` and `cancel` from any thread; `done` is called once on the scan's thread
/// (not after `cancel` returns).
public final class BlackBarScan: Sendable {
    /// The points of the length the scan reads, as fractions.
    public static let points = [0.1, 0.26, 0.42, 0.58, 0.74, 0.9]
    private let state = Locked(false)
    private let interrupt = InterruptFlag()
    private let thread: Locked<EngineThread?> = Locked(nil)

    /// Starts the scan of `source` (`duration` seconds long); `done` gets the crop to offer, or
    /// nil when there are no bars worth cropping or the file cannot tell.
    public init(source: MediaSource, duration: Double, done: @escaping @Sendable (PixelRect?) -> Void) {
        let cancelled = state, interrupt = interrupt
        let worker = EngineThread(name: "reel.bars") {
            _ = reel_set_thread_nice(ThumbnailProvider.niceness)
            let found = Self.scan(source, duration: duration, interrupt: interrupt) { cancelled.withLock { $0 } }
            if !cancelled.withLock({ $0 }) { done(found) }
        }
        thread.withLock { $0 = worker }
    }

    /// Stops the scan at its next packet; `done` is not called once this returns.
    public func cancel() {
        state.withLock { $0 = true }
        interrupt.abort()
        let worker = thread.withLock { t -> EngineThread? in defer { t = nil }; return t }
        guard let worker else { return }
        if worker.isCurrent { worker.detach() } else { worker.join() }
    }

    deinit { cancel() }

    static func scan(_ source: MediaSource, duration: Double, interrupt: InterruptFlag,
                     cancelled: () -> Bool) -> PixelRect? {
        guard case .file = source.location, duration > 0,
              let reader = try? KeyFrameReader(source: source, interrupt: interrupt) else { return nil }
        defer { reader.close() }
        var findings: [PixelRect?] = []
        var size: (width: Int, height: Int)?
        for point in points {
            if cancelled() { return nil }
            guard let found = try? reader.content(at: duration * point, cancelled: cancelled) else { continue }
            findings.append(found.content)
            size = (found.width, found.height)
        }
        guard let size else { return nil }
        return BlackBars.crop(from: findings, width: size.width, height: size.height)
    }
}
