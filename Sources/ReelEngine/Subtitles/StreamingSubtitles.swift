import CFFmpeg
import Foundation

/// The subtitle streams of media read over the network, decoded from the packets the player's
/// demuxer reads anyway: a second pass over a remote file, as local files get, would download
/// all of it first. Each track holds what has been read so far, which runs ahead of playback;
/// after a seek, cues already read stay, and those read again are not doubled.
/// Threading: `take` on the demux thread only; each change goes out through `report`.
final class StreamingSubtitles: @unchecked Sendable {
    // Safe: everything below is touched only by `take` (the demux thread) and deinit.
    private var decoders: [Int: UnsafeMutablePointer<AVCodecContext>] = [:]
    private var tracks: [Int: DecodedSubtitles] = [:]
    /// Cues already taken per stream, by start time and content.
    private var seen: [Int: Set<String>] = [:]
    private let timeBases: [Int: AVRational]
    private let origin: Double
    private let report: @Sendable (DecodedSubtitles) -> Void

    /// The stream indices whose packets `take` wants.
    let streams: Set<Int>
    /// The tracks before any packet is read, for the track menu at once.
    let initialTracks: [DecodedSubtitles]

    /// Nil when the media has no subtitle stream a decoder can open.
    init?(input: MediaInput, info: MediaInfo, report: @escaping @Sendable (DecodedSubtitles) -> Void) {
        var timeBases: [Int: AVRational] = [:]
        for s in info.streams where s.kind == .subtitle && s.index < input.streamCount {
            let stream = input.stream(s.index)
            guard let ctx = SubtitleDecoding.openDecoder(stream) else { continue }
            decoders[s.index] = ctx
            let track = SubtitleLoader.trackInfo(stream, id: s.index, origin: .embedded(streamIndex: s.index))
            tracks[s.index] = SubtitleDecoding.empty(track, decoder: ctx)
            timeBases[s.index] = stream.pointee.time_base
        }
        guard !decoders.isEmpty else { return nil }
        self.timeBases = timeBases
        streams = Set(decoders.keys)
        let opened = tracks
        initialTracks = opened.keys.sorted().compactMap { opened[$0] }
        origin = info.startTime
        self.report = report
    }

    deinit {
        for ctx in decoders.values {
            var c: UnsafeMutablePointer<AVCodecContext>? = ctx
            avcodec_free_context(&c)
        }
    }

    func take(_ packet: Packet) {
        let index = packet.streamIndex
        guard let ctx = decoders[index], let decoded = tracks[index], let timeBase = timeBases[index] else { return }
        // The cues are kept in time order. The packet is decoded against those before it, so
        // that a bitmap cue ends the one before it in time, also when read again after a seek
        // back, and never a later one.
        let time = packet.pts != reel_nopts_value() ? Double(packet.pts) * av_q2d(timeBase) - origin : .infinity
        let split = decoded.cues.firstIndex { $0.start >= time - 1e-6 } ?? decoded.cues.count
        var head = decoded
        head.cues = Array(decoded.cues[..<split])
        let before = head.cues.count
        let lastEnd = head.cues.last?.end
        SubtitleDecoding.decodePacket(ctx, packet, timeBase: timeBase, origin: origin, into: &head)
        var known = seen[index] ?? []
        let fresh = head.cues[before...].filter { known.insert(Self.key($0)).inserted }
        head.cues.removeLast(head.cues.count - before)
        let endMoved = head.cues.last?.end != lastEnd
        guard !fresh.isEmpty || endMoved else { return }
        var merged = head
        merged.cues = (head.cues + fresh + decoded.cues[split...]).sorted { $0.start < $1.start }
        seen[index] = known
        tracks[index] = merged
        var finished = merged
        SubtitleDecoding.finish(&finished)
        report(finished)
    }

    /// What makes a cue the same when it is read again: its start and its text. libavcodec
    /// numbers text events in the order it decodes them (the first field), which a re-read
    /// changes.
    private static func key(_ cue: SubtitleCue) -> String {
        let start = Int((cue.start * 1000).rounded())
        switch cue.content {
        case .ass(let line):
            let text = line.firstIndex(of: ",").map { line[line.index(after: $0)...] } ?? line[...]
            return "\(start)|\(text)"
        case .bitmaps(let bitmaps):
            return "\(start)|\(bitmaps.count)|\(bitmaps.first.map { "\($0.x),\($0.y),\($0.width),\($0.height)" } ?? "")"
        }
    }
}
