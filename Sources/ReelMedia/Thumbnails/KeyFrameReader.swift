import CFFmpeg
import Foundation

/// The thumbnails' own reader of a media source: a format context and a one-thread decoder
/// that are nobody else's, which decodes only key frames and scales them to thumbnails.
///
/// Which key frame a time shows: with the demuxer's index (MP4, Matroska with cues, most
/// files) the key frame nearest the time, found without reading anything, so nearby times
/// share one cache entry before any decode. Without an index (MPEG-TS, raw streams) the first
/// key frame the demuxer reaches after seeking to the time, normally the one before it; the
/// spans of hover times known to reach each decoded key frame are kept, so those share too.
/// Threading: created and used on the provider's decode thread only.
package final class KeyFrameReader {
    private let input: MediaInput
    private let stream: Int
    private let decoder: Decoder
    private let timeBase: Double
    /// The container's start: times count from it, as everywhere in the engine.
    private let origin: Double
    private let rotation: Int
    private let streamAspect: Double
    /// The media's length in seconds, when the container says it.
    package let duration: Double?
    /// The demuxer's index when it lists the whole stream; nil while it does not.
    private var index: KeyFrameIndex?
    private var indexEntries = -1
    /// What decoding taught about the index's timestamps (see `KeyFrameIndex.presentationOffset`).
    private var learnedOffset: Int64?
    /// The stream's last timestamp (its start plus the duration), nil when the length is unknown.
    private let streamEnd: Int64?
    /// Index-less media: hover times from `from` to `to` reach the key frame `key`.
    private var spans: [(from: Double, to: Double, key: Int64)] = []
    private let packet = Packet()
    private let frame = Frame()
    /// Pictures with a colour plan (HDR, BT.2020) are drawn as the software path draws them,
    /// tone-mapped; its tables are kept from one thumbnail to the next.
    private lazy var finisher = FrameScaler()

    /// Key packets tried per request before giving up (a damaged key frame, then its successors).
    private static let keyFrameAttempts = 3
    /// Packets read per request at most: a key frame is normally the first packet after the
    /// seek; a file whose index points nowhere must not be read to its end.
    private static let packetBudget = 2000

    /// Opens `source` and its video decoder; throws when there is no picture to show.
    package init(source: MediaSource, interrupt: InterruptFlag) throws(ThumbnailError) {
        let opened: MediaInput
        do { opened = try MediaInput(source: source, interrupt: interrupt, remote: nil) } catch { throw .unreadable(error) }
        input = opened
        let info = MediaProbe.info(of: opened)
        guard let video = info.selectedVideoStream, let stream = info.videoStream else {
            let covers = info.streams.contains { $0.kind == .video && $0.isAttachedPicture }
            throw .noPicture(covers ? "\(source.displayName) has only cover art" : "\(source.displayName) has no video")
        }
        self.stream = video
        opened.keepOnly(streams: [video])
        do { decoder = try Decoder(stream: opened.stream(video), threads: 1) } catch { throw .unreadable(error) }
        decoder.decodesKeyFramesOnly = true
        let timeBase = opened.timeBase(of: video)
        self.timeBase = timeBase
        origin = info.startTime
        rotation = stream.rotation
        streamAspect = stream.sampleAspectRatio.map { $0.value > 0 ? $0.value : 1 } ?? 1
        duration = info.duration
        streamEnd = info.duration.map { Int64((($0 + info.startTime) / timeBase).rounded()) }
        // Matroska reads its cues at the first seek, not at open: one seek to the start makes
        // the index whole before it is read.
        let start = opened.stream(video).pointee.start_time
        _ = opened.seek(stream: video, toKeyFrameAt: start == reel_nopts_value() ? 0 : start)
        refreshIndex()
    }

    /// Reads the demuxer's index again when it has grown, and trusts it only while it covers
    /// the stream (a generic index lists only what has been read so far).
    private func refreshIndex() {
        let count = KeyFrameIndex.entryCount(input: input, stream: stream)
        guard count != indexEntries else { return }
        indexEntries = count
        guard var fresh = KeyFrameIndex(input: input, stream: stream) else { index = nil; return }
        if let learnedOffset { fresh.presentationOffset = learnedOffset }
        index = streamEnd.map { fresh.covers(end: $0) } ?? (fresh.timestamps.count >= 2) ? fresh : nil
    }

    package func close() { input.close() }

    /// The picture `time` shows, when that is known without reading the file.
    package func pictureKey(at time: Double) -> Int64? {
        refreshIndex()
        if let index { return index.nearest(toPresentation: timestamp(time)) }
        return spans.first { $0.from <= time && time <= $0.to }?.key
    }

    /// Reads and scales the key frame `time` shows, shaped by `transform`. `cancelled` is
    /// polled between packets.
    package func thumbnail(at time: Double, size: ThumbnailSize, transform: PictureTransform = .identity,
                   cancelled: () -> Bool) throws(ThumbnailError) -> (key: Int64, thumbnail: Thumbnail) {
        let (key, found) = try keyFrame(at: time, cancelled: cancelled)
        let frameTime = Double(found.pts == reel_nopts_value() ? 0 : found.pts) * timeBase - origin
        let pixels = try scale(found.picture, size: size, transform: transform)
        return (key, Thumbnail(requestedTime: time, frameTime: frameTime, width: pixels.width,
                               height: pixels.height, pixels: pixels.data, fromCache: false))
    }

    /// The picture inside black bars in the key frame `time` shows, in its pixels (nil when the
    /// frame is black all over, or not YUV), with the frame's size: one of the findings
    /// `BlackBars.crop` combines.
    package func content(at time: Double, cancelled: () -> Bool) throws(ThumbnailError) -> (content: PixelRect?, width: Int, height: Int) {
        let picture = try keyFrame(at: time, cancelled: cancelled).found.picture.pointer
        let f = picture.pointee
        guard let descriptor = av_pix_fmt_desc_get(AVPixelFormat(f.format)),
              descriptor.pointee.flags & UInt64(AV_PIX_FMT_FLAG_RGB) == 0, let plane = f.data.0 else {
            return (nil, Int(f.width), Int(f.height))
        }
        let depth = Int(descriptor.pointee.comp.0.depth), stride = Int(f.linesize.0)
        // Luma is the first plane's first component, 8 bits or 16-bit words (planar and nv12/p010
        // alike), compared as coded, as cropdetect does (limited range's black, 16, is below the limit).
        let wide = descriptor.pointee.comp.0.step == 2
        let content = BlackBars.content(width: Int(f.width), height: Int(f.height), depth: depth) { x, y in
            wide ? Int(UnsafeRawPointer(plane + y * stride).load(fromByteOffset: 2 * x, as: UInt16.self))
                 : Int(plane[y * stride + x])
        }
        return (content, Int(f.width), Int(f.height))
    }

    /// Finds and decodes the key frame `time` shows: its key and the picture.
    private func keyFrame(at time: Double, cancelled: () -> Bool) throws(ThumbnailError) -> (key: Int64, found: KeyFrame) {
        refreshIndex()
        let found: KeyFrame
        let key: Int64
        if let index {
            let entry = index.nearest(toPresentation: timestamp(time))
            let wanted = index.presentation(of: entry)
            // Seeking by presentation time lands on this key frame whether the demuxer seeks
            // by presentation (MP4 corrects for its edit list, Matroska) or by decode time.
            _ = input.seek(stream: stream, toKeyFrameAt: wanted)
            // Key packets clearly before the wanted one (a demuxer landing early) are passed
            // over; half the smallest gap between key frames is "clearly".
            let gaps = zip(index.timestamps.dropFirst(), index.timestamps).map { $0 - $1 }
            guard let keyFrame = try readKeyFrame(notBefore: wanted - (gaps.min() ?? 0) / 2, offset: index.presentationOffset,
                                                  time: time, cancelled: cancelled) else {
                throw .unreadable(.corruptData("no key frame at \(TimeFormat.clock(time)): the data ends before it"))
            }
            found = keyFrame
            key = entry
            // What the index said against what the key frame says: keeps the nearest choice
            // exact when the index holds decode times (MP4 with B-frames).
            if found.pts != reel_nopts_value(), found.packetDts == entry || found.packetPts == entry {
                learnedOffset = found.pts - entry
                self.index?.presentationOffset = found.pts - entry
            }
        } else {
            // Seek there and take the first key frame; when none follows (the time is past the
            // last one), start further back, twice as far each time.
            var back = 0.0
            while true {
                let from = max(0, time - back)
                if input.seek(to: from + origin) < 0 && from > 0 { back = time; continue }
                if let keyFrame = try readKeyFrame(notBefore: nil, offset: 0, time: time, cancelled: cancelled) {
                    found = keyFrame
                    break
                }
                if from == 0 { throw .unreadable(.corruptData("no key frame in the data")) }
                back = back == 0 ? 1 : back * 2
            }
            key = found.pts
            let frameTime = Double(found.pts) * timeBase - origin
            if frameTime <= time { spans.append((frameTime, time, key)) }
        }
        return (key, found)
    }

    /// A decoded key frame and the timestamps of the packet it came from.
    private struct KeyFrame {
        let picture: Frame
        /// The picture's presentation timestamp (the decoder's best effort, else the packet's).
        let pts: Int64
        let packetPts: Int64
        let packetDts: Int64
    }

    /// Reads on from where the demuxer stands to the first key packet that decodes, passing over
    /// key packets that start before `notBefore`. Nil at the end of the data.
    private func readKeyFrame(notBefore: Int64?, offset: Int64, time: Double,
                              cancelled: () -> Bool) throws(ThumbnailError) -> KeyFrame? {
        decoder.flush()
        var attempts = 0
        for _ in 0..<Self.packetBudget {
            if cancelled() { throw .closed }
            packet.unref()
            let result = input.read(into: packet)
            if result == FFmpegError.again { usleep(2_000); continue }
            if result == FFmpegError.eof { return nil }
            if result < 0 {
                if cancelled() { throw .closed }
                throw .unreadable(.corruptData("no key frame at \(TimeFormat.clock(time)): \(FFmpegError.text(for: result))"))
            }
            guard packet.streamIndex == stream, packet.isKey else { continue }
            let packetTime = packet.pts != reel_nopts_value() ? packet.pts
                : packet.dts != reel_nopts_value() ? packet.dts + offset : reel_nopts_value()
            if let notBefore, packetTime != reel_nopts_value(), packetTime < notBefore { continue }
            attempts += 1
            if let picture = decodeKeyPacket() {
                let pts = picture.bestEffortTimestamp != reel_nopts_value() ? picture.bestEffortTimestamp : packetTime
                return KeyFrame(picture: picture, pts: pts, packetPts: packet.pts, packetDts: packet.dts)
            }
            if attempts >= Self.keyFrameAttempts { break }
        }
        if cancelled() { throw .closed }
        throw .unreadable(.corruptData("no decodable key frame near \(TimeFormat.clock(time))"))
    }

    /// Decodes one key packet alone: sent, then drained, so the decoder hands the picture out
    /// at once instead of holding it for reordering; flushed for the next request.
    private func decodeKeyPacket() -> Frame? {
        frame.unref()
        defer { decoder.flush() }
        guard case .accepted = decoder.send(packet) else { return nil }
        _ = decoder.send(nil)
        while true {
            switch decoder.receive(into: frame) {
            case .frame:
                if frame.width > 0 && frame.height > 0 { return frame }
                frame.unref()
            case .needsInput, .endOfStream, .error:
                return nil
            }
        }
    }

    /// Scales to the thumbnail size of the picture as displayed and shaped by `transform`
    /// (through the colour plan, when the picture has one), then turns it upright and mirrors
    /// it as shown: the stream's rotation and the person's crop, aspect, turns and mirror, as
    /// `ShapedPicture` shapes Save Picture.
    private func scale(_ picture: Frame, size: ThumbnailSize,
                       transform: PictureTransform) throws(ThumbnailError) -> (data: Data, width: Int, height: Int) {
        let sar = picture.pointer.pointee.sample_aspect_ratio
        let aspect = sar.num > 0 && sar.den > 0 ? Double(sar.num) / Double(sar.den) : streamAspect
        let shaped = ShapedPicture(width: picture.width, height: picture.height, sampleAspect: aspect,
                                   clockwise: rotation, transform: transform)
        let target = size.pixels(displayWidth: shaped.displayWidth, displayHeight: shaped.displayHeight)
        // Scaled on its side first when the picture is turned a quarter.
        let scaledWidth = shaped.isQuarterTurned ? target.height : target.width
        let scaledHeight = shaped.isQuarterTurned ? target.width : target.height
        let rgba: Data
        do {
            let video = VideoFrame(frame: picture, serial: 0, pts: 0, duration: 0, index: nil)
            if video.colour.plan() != nil {
                rgba = try FrameExport.finishedRGBA(video, region: shaped.isCropped ? shaped.sourceRegion : nil,
                                                    width: scaledWidth, height: scaledHeight, scaler: finisher)
            } else {
                let source = shaped.isCropped ? try picture.cropped(to: shaped.region) : picture
                rgba = try FrameExport.rgba(of: source, width: scaledWidth, height: scaledHeight)
            }
        } catch { throw .unreadable(error) }
        let shown = shaped.turning(rgba, width: scaledWidth, height: scaledHeight)
        return (shown.pixels, shown.width, shown.height)
    }

    private func timestamp(_ time: Double) -> Int64 {
        Int64(((max(0, time) + origin) / timeBase).rounded())
    }
}
