import CFFmpeg
import Foundation

/// The demux thread: reads packets and deals them to the decoders' queues, performs seeks
/// (latest request wins), and holds back when enough is queued so memory stays bounded.
/// Threading: its own thread; `requestSeek`/`stop` from the control thread.
final class Demuxer: @unchecked Sendable {
    struct Route {
        var streamIndex: Int
        let queue: PacketQueue
        var timeBase: Double
        /// The sound's route, which an audio stream switch points at another stream.
        var isAudio = false
    }

    /// Streams whose packets go to a callback on the demux thread instead of a queue (subtitles
    /// of remote media: small, rare, and decoded at once).
    struct SidePackets {
        let streams: Set<Int>
        let take: (Packet) -> Void
    }

    enum Event {
        /// No more packets for `serial`; `error` says why when it was not a clean end.
        case ended(serial: Int, error: PlayerError?)
    }

    // Safe: `input` and `routes` are used only on the demux thread once `start` runs.
    private let input: MediaInput
    private var routes: [Route]
    private let side: SidePackets?
    private let wakeup: Wakeup
    private let pendingSeek = Locked<SeekRequest?>(nil)
    private let stopped = Locked(false)
    private let post: @Sendable (Event) -> Void
    private var thread: EngineThread?
    /// The container's start in seconds: seek targets count from it.
    private let origin: Double
    let readErrors = Locked(0)
    /// Bytes queued across all streams before the demuxer waits, whatever the per-stream counts.
    static let maxQueuedBytes = 16 << 20
    /// Bytes queued before the demuxer waits even for a sound queue run empty.
    static let starvedSoundLimit = 4 * maxQueuedBytes
    /// EAGAINs in a row retried at once before waiting for more data.
    static let immediateRetries = 8

    init(input: MediaInput, routes: [Route], side: SidePackets? = nil, wakeup: Wakeup, origin: Double,
         post: @escaping @Sendable (Event) -> Void) {
        self.origin = origin
        self.input = input
        self.routes = routes
        self.side = side
        self.wakeup = wakeup
        self.post = post
        keepWantedStreams()
    }

    /// The input reads only the routed streams and the side streams; the rest is discarded.
    private func keepWantedStreams() {
        input.keepOnly(streams: Set(routes.map(\.streamIndex)).union(side?.streams ?? []))
    }

    /// Starts reading; `initial` positions the decoders (and the input, if it moves).
    func start(initial: SeekRequest) {
        pendingSeek.withLock { $0 = initial }
        thread = EngineThread(name: "reel.demux") { [self] in run() }
    }

    func requestSeek(_ request: SeekRequest) {
        pendingSeek.withLock { pending in
            // Latest wins, except that an audio stream switch not yet made is carried along.
            var request = request
            if request.audioSwitch == nil { request.audioSwitch = pending?.audioSwitch }
            pending = request
        }
        wakeup.signal()
    }

    func stop() {
        stopped.withLock { $0 = true }
        input.interrupt.abort()
        wakeup.signal()
        thread?.join()
        thread = nil
    }

    private var isStopped: Bool { stopped.current }

    private func run() {
        let scratch = Packet()
        var serial = 0
        var atEnd = false
        var consecutiveErrors = 0
        var againInARow = 0
        var lastPosition: [Int: Double] = [:]
        var continuity = TimestampContinuity(formatName: input.formatName)
        while !isStopped {
            if let seek = pendingSeek.withLock({ request -> SeekRequest? in defer { request = nil }; return request }) {
                serial = seek.serial
                if let change = seek.audioSwitch, let i = routes.firstIndex(where: \.isAudio) {
                    routes[i].streamIndex = change.streamIndex
                    routes[i].timeBase = av_q2d(change.timeBase)
                    keepWantedStreams()
                }
                if seek.movesDemuxer {
                    input.interrupt.setDeadline(seconds: MediaInput.networkTimeout)
                    _ = input.seek(to: seek.demuxTarget + origin)
                    input.interrupt.setDeadline(seconds: nil)
                }
                for route in routes { route.queue.flush(seek) }
                continuity.reset()
                atEnd = false
                consecutiveErrors = 0
                continue
            }
            if atEnd || queuesAreFull() {
                // Until a decoder took enough (`PacketQueue`), a seek, or the stop.
                wakeup.wait()
                continue
            }
            let result = input.read(into: scratch)
            if result < 0 {
                if isStopped { break }
                if result == FFmpegError.again {
                    // "Call again": at once, and after a few in a row, once more bytes came.
                    againInARow += 1
                    if againInARow >= Self.immediateRetries { input.waitForData() }
                    continue
                }
                // A failed download also leaves the byte context at its end: not a clean end. Nor
                // does a read that failed or was cut short (the network's deadline interrupting
                // a wait for bytes, before the cache gives up): FFmpeg marks the byte context at
                // its end then too, with the error beside it, which later calls can lose: the
                // cache's own record of its last read is asked as well.
                let bytes = input.formatContext.pointee.pb
                let readFailed = (bytes.map { $0.pointee.error < 0 } ?? false) || input.cacheReadFailed
                let clean = input.cacheFailure == nil && !readFailed
                    && (result == FFmpegError.eof || (bytes.map { avio_feof($0) != 0 } ?? false))
                if !clean {
                    readErrors.withLock { $0 += 1 }
                    consecutiveErrors += 1
                    // Demuxers often resynchronise after damage; give them a few tries.
                    if consecutiveErrors < 32 { continue }
                }
                for route in routes { route.queue.push(.endOfStream(serial: serial)) }
                atEnd = true
                post(.ended(serial: serial, error: clean ? nil : endError(result, at: lastPosition.values.max())))
                continue
            }
            consecutiveErrors = 0
            againInARow = 0
            let stream = input.stream(scratch.streamIndex)
            let kind = stream.pointee.codecpar.pointee.codec_type
            continuity.adjust(scratch, timeBase: stream.pointee.time_base,
                              judged: kind == AVMEDIA_TYPE_VIDEO || kind == AVMEDIA_TYPE_AUDIO)
            guard let route = routes.first(where: { $0.streamIndex == scratch.streamIndex }) else {
                if let side, side.streams.contains(scratch.streamIndex) { side.take(scratch) }
                scratch.unref()
                continue
            }
            if scratch.pts != reel_nopts_value() {
                lastPosition[route.streamIndex] = Double(scratch.pts) * route.timeBase - origin
            }
            route.queue.push(.packet(Packet.takingContents(of: scratch), serial: serial))
        }
    }

    /// Enough is queued when the total is large, or when every stream has a comfortable lead
    /// (ffplay's rule: it never starves one decoder while another's queue is full). The lead
    /// is well above `PacketQueue.refillPackets`, so refills come in bursts. Past the budget,
    /// a sound queue run empty is still fed, up to `starvedSoundLimit`: loudness levelling
    /// holds 1.9 s of sound back, which at 100 Mbit/s is more picture than the budget queued
    /// beside it, and stopping there left the sound waiting for packets the picture's queue
    /// held back (a stall).
    private func queuesAreFull() -> Bool {
        var total = 0
        var allComfortable = true
        var soundStarved = false
        for route in routes {
            total += route.queue.byteCount
            if route.queue.packetCount < 48 { allComfortable = false }
            if route.isAudio && route.queue.packetCount == 0 { soundStarved = true }
        }
        if soundStarved && total < Self.starvedSoundLimit { return false }
        return total > Self.maxQueuedBytes || allComfortable
    }

    private func endError(_ code: Int32, at position: Double?) -> PlayerError {
        let whereText = position.map { " after \(TimeFormat.clock($0))" } ?? ""
        if let failure = input.cacheFailure { return failure }
        if input.source.isRemote {
            return .networkError("reading stopped\(whereText): \(FFmpegError.text(for: code))")
        }
        return .corruptData("the file ends early or is damaged\(whereText) (\(FFmpegError.text(for: code)))")
    }
}
