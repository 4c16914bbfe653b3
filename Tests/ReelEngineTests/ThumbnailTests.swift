import Foundation
import ReelTestSupport
@testable import ReelEngine
import Testing

/// Hover previews: the right key frame (ffprobe's key-frame list as oracle), the right pixels
/// (FFmpeg's own scaled conversion, by PSNR), newest-wins, the byte-bounded cache, bad input,
/// remote sources, closing mid-decode, and the decode thread's lowered priority.
@Suite("Thumbnails")
struct ThumbnailTests {
    /// A picture that matches FFmpeg's conversion of the right frame scores well above this;
    /// neighbouring key frames of these fixtures score far below it.
    static let samePicture = 30.0

    /// Positions between each pair of key frames, nearer one then the other, and beyond both ends.
    static func positions(_ keys: [Double], duration: Double) -> [Double] {
        var times: [Double] = [-3, duration + 5]
        for (a, b) in zip(keys, keys.dropFirst()) {
            times += [a + (b - a) * 0.3, a + (b - a) * 0.7]
        }
        return times
    }

    @Test("The picture is the key frame nearest the position, as FFmpeg decodes and scales it",
          arguments: [Fixtures.Spec.withChapters, .h264MP4, .hevcMKV])
    func nearestKeyFrame(_ spec: Fixtures.Spec) throws {
        let path = try Fixtures.path(spec)
        let keys = try ThumbnailOracle.keyFrames(path)
        #expect(keys.count >= 3, "\(spec.name) has \(keys.count) key frames; the test needs several")
        let duration = try #require(try MediaInspector.inspect(MediaSource(path: path)).duration)
        let recorder = ThumbnailRecorder()
        let provider = ThumbnailProvider(source: MediaSource(path: path), size: .height(90), deliver: recorder.deliver)
        defer { provider.close() }
        for t in Self.positions(keys, duration: duration) {
            let result = try recorder.ask(provider, t)
            let thumbnail = try result.outcome.get()
            let expected = ThumbnailOracle.nearest(keys, to: t)
            #expect(abs(thumbnail.frameTime - expected) < 0.002,
                    "\(spec.name) at \(t) s: showed the key frame at \(thumbnail.frameTime), expected \(expected) (key frames \(keys))")
            #expect(thumbnail.requestedTime == t)
            #expect(thumbnail.height == 90 && thumbnail.bytesPerRow == thumbnail.width * 4)
            #expect(thumbnail.pixels.count == thumbnail.width * thumbnail.height * 4)
            let right = try ThumbnailOracle.picture(path, at: expected, width: thumbnail.width, height: thumbnail.height)
            let psnr = ThumbnailOracle.psnr(thumbnail.pixels, right)
            #expect(psnr >= Self.samePicture, "\(spec.name) at \(t) s: \(psnr) dB against FFmpeg's key frame at \(expected)")
            // And it can tell: another key frame does not pass for this one.
            let other = keys.first { abs($0 - expected) > 0.01 }!
            let wrong = try ThumbnailOracle.picture(path, at: other, width: thumbnail.width, height: thumbnail.height)
            #expect(ThumbnailOracle.psnr(thumbnail.pixels, wrong) < Self.samePicture,
                    "\(spec.name): the key frame at \(other) passes for the one at \(expected)")
        }
    }

    @Test("Without a demuxer index (MPEG-TS) the picture is a key frame within a GOP of the position")
    func noIndex() throws {
        let path = try Fixtures.path(.h264TS)
        let keys = try ThumbnailOracle.keyFrames(path)
        let recorder = ThumbnailRecorder()
        let provider = ThumbnailProvider(source: MediaSource(path: path), size: .height(120), deliver: recorder.deliver)
        defer { provider.close() }
        for t in [0.2, 1.5, 2.6, 3.4] {
            let thumbnail = try recorder.ask(provider, t).outcome.get()
            let key = ThumbnailOracle.nearest(keys, to: thumbnail.frameTime)
            #expect(abs(key - thumbnail.frameTime) < 0.002, "at \(t) s: \(thumbnail.frameTime) is not a key frame (\(keys))")
            #expect(abs(thumbnail.frameTime - t) <= 1.0 + 0.002, "at \(t) s: the key frame at \(thumbnail.frameTime) is more than a GOP away")
            let right = try ThumbnailOracle.picture(path, at: key, width: thumbnail.width, height: thumbnail.height)
            #expect(ThumbnailOracle.psnr(thumbnail.pixels, right) >= Self.samePicture, "at \(t) s")
        }
        // A position already answered from a key frame maps to it without another decode.
        let before = provider.statistics.decoded
        let again = try recorder.ask(provider, 1.4).outcome.get()
        let first = try #require(recorder.all.first { $0.requestedTime == 1.5 }?.thumbnail)
        if first.frameTime <= 1.4 {
            #expect(again.fromCache && provider.statistics.decoded == before, "1.4 s lies in the span 1.5 s reached")
        }
    }

    @Test("Sample aspect ratio and rotation: the thumbnail has the displayed shape and FFmpeg's picture")
    func displayShape() throws {
        let anamorphic = try Fixtures.path(.anamorphic)
        let rotated = try Self.rotatedFixture()
        for (path, width, height) in [(anamorphic, 569, 160), (rotated, 120, 160)] {
            let info = try MediaInspector.inspect(MediaSource(path: path))
            let expected = ThumbnailSize.standard.pixels(for: try #require(info.videoStream))
            #expect(expected.width == width && expected.height == height, "\(path): the size for the stream is \(expected)")
            let recorder = ThumbnailRecorder()
            let provider = ThumbnailProvider(source: MediaSource(path: path), deliver: recorder.deliver)
            defer { provider.close() }
            let thumbnail = try recorder.ask(provider, 1.0).outcome.get()
            #expect(thumbnail.width == width && thumbnail.height == height,
                    "\(path): \(thumbnail.width)×\(thumbnail.height), expected \(width)×\(height)")
            let right = try ThumbnailOracle.picture(path, at: thumbnail.frameTime, width: thumbnail.width, height: thumbnail.height)
            let psnr = ThumbnailOracle.psnr(thumbnail.pixels, right)
            #expect(psnr >= Self.samePicture, "\(path): \(psnr) dB against FFmpeg's picture")
            // Turned the other way it would not pass.
            let flipped = PictureRotation.rotate(thumbnail.pixels, width: thumbnail.width, height: thumbnail.height, clockwise: 180)
            #expect(ThumbnailOracle.psnr(flipped.pixels, right) < Self.samePicture, "\(path): upside down passes too")
        }
    }

    /// The person's shapes of a picture and FFmpeg's way to each (`W`, `H`: the preview's size).
    struct ShapeCase: Sendable, CustomTestStringConvertible {
        let name: String
        let fixture: @Sendable () throws -> String
        let transform: PictureTransform
        let width: Int, height: Int
        let before: String?
        /// Scaled on its side when the stream's and the person's turns together are odd.
        let onItsSide: Bool
        let after: String?
        var testDescription: String { name }
    }

    static func rotatedFixture() throws -> String {
        try Fixtures.derived("rotated-90", ext: "mp4", from: .videoOnly) { source, destination in
            try Command.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin", "-y", "-i", source,
                             "-c", "copy", "-metadata:s:v:0", "rotate=90", "-f", "mp4", destination])
        }
    }

    static let shapeCases: [ShapeCase] = [
        ShapeCase(name: "turned a quarter", fixture: { try Fixtures.path(.letterboxed) }, transform: PictureTransform(turns: 1),
                  width: 90, height: 160, before: nil, onItsSide: true, after: "transpose=clock"),
        ShapeCase(name: "mirrored", fixture: { try Fixtures.path(.letterboxed) }, transform: PictureTransform(flipped: true),
                  width: 284, height: 160, before: nil, onItsSide: false, after: "hflip"),
        ShapeCase(name: "black bars cropped", fixture: { try Fixtures.path(.letterboxed) },
                  transform: PictureTransform(crop: PixelRect(x: 0, y: 46, width: 640, height: 268)),
                  width: 382, height: 160, before: "crop=640:268:0:46", onItsSide: false, after: nil),
        ShapeCase(name: "anamorphic at 4:3", fixture: { try Fixtures.path(.anamorphic) }, transform: PictureTransform(aspect: .standard),
                  width: 213, height: 160, before: nil, onItsSide: false, after: nil),
        // The stream's quarter turn (anticlockwise: "rotate=90" tags a display matrix of +90°)
        // and the person's three clockwise: upside down, then mirrored: flipped top to bottom.
        ShapeCase(name: "a rotated stream turned on and mirrored", fixture: { try rotatedFixture() },
                  transform: PictureTransform(turns: 3, flipped: true),
                  width: 213, height: 160, before: nil, onItsSide: false, after: "vflip"),
    ]

    @Test("A shaped request: the person's crop, aspect, turns and mirror over the stream's own, as FFmpeg's filters make them",
          arguments: shapeCases)
    func shaped(_ c: ShapeCase) throws {
        let path = try c.fixture()
        let recorder = ThumbnailRecorder()
        let provider = ThumbnailProvider(source: MediaSource(path: path), deliver: recorder.deliver)
        defer { provider.close() }
        provider.request(at: 0.1, transform: c.transform)
        let result = try #require(recorder.wait(for: 0.1), "no answer")
        #expect(result.transform == c.transform)
        let thumbnail = try result.outcome.get()
        #expect(thumbnail.width == c.width && thumbnail.height == c.height, "\(c.name): \(thumbnail.width)×\(thumbnail.height)")
        let scaled = c.onItsSide ? (thumbnail.height, thumbnail.width) : (thumbnail.width, thumbnail.height)
        let right = try ThumbnailOracle.shaped(path, at: thumbnail.frameTime, before: c.before, scaled: scaled, after: c.after,
                                               width: thumbnail.width, height: thumbnail.height)
        let psnr = ThumbnailOracle.psnr(thumbnail.pixels, right)
        #expect(psnr >= Self.samePicture, "\(c.name): \(psnr) dB against FFmpeg's shaped picture")
        // The plain picture at the same size does not pass for it (an aspect alone is the size).
        if c.before != nil || c.after != nil {
            let plain = try ThumbnailOracle.shaped(path, at: thumbnail.frameTime, scaled: (thumbnail.width, thumbnail.height),
                                                   width: thumbnail.width, height: thumbnail.height)
            #expect(ThumbnailOracle.psnr(thumbnail.pixels, plain) < Self.samePicture, "\(c.name): the unshaped picture passes too")
        }
        // The same key frame in another shape is another picture, not the cached one; in this
        // shape again, the cached one.
        let other = try recorder.ask(provider, 0.12).outcome.get()
        #expect(!other.fromCache && other.frameTime == thumbnail.frameTime, "the plain picture came from the shaped one's entry")
        provider.request(at: 0.11, transform: c.transform)
        let again = try #require(recorder.wait(for: 0.11)).outcome.get()
        #expect(again.fromCache && again.pixels == thumbnail.pixels)
    }

    @Test("Sizes keep the display aspect ratio: by height, by width, fitting a box")
    func sizes() {
        #expect(ThumbnailSize.height(160).pixels(displayWidth: 1920, displayHeight: 1080) == (284, 160))
        #expect(ThumbnailSize.width(200).pixels(displayWidth: 1920, displayHeight: 1080) == (200, 113))
        #expect(ThumbnailSize.fitting(width: 200, height: 200).pixels(displayWidth: 1080, displayHeight: 1920) == (113, 200))
        #expect(ThumbnailSize.fitting(width: 200, height: 200).pixels(displayWidth: 1920, displayHeight: 1080) == (200, 113))
        #expect(ThumbnailSize.height(0).pixels(displayWidth: 0, displayHeight: 0) == (1, 1))
    }

    @Test("The newest request wins: those waiting behind a decode are dropped, not queued")
    func newestWins() throws {
        let path = try Fixtures.path(.withChapters)
        let recorder = ThumbnailRecorder()
        // The first delivery holds the decode thread until every later request is in, so
        // which requests are still waiting is certain.
        let entered = DispatchSemaphore(value: 0)
        let gate = DispatchSemaphore(value: 0)
        let first = 0.1
        recorder.beforeRecording = { result in
            if result.requestedTime == first { entered.signal(); gate.wait() }
        }
        let provider = ThumbnailProvider(source: MediaSource(path: path), deliver: recorder.deliver)
        defer { provider.close() }
        provider.request(at: first)
        #expect(entered.wait(timeout: .now() + 30) == .success, "the first request was not answered")
        let later = [1.1, 2.1, 3.1, 4.1, 5.1]
        for t in later { provider.request(at: t) }
        gate.signal()
        #expect(recorder.wait(for: later.last!) != nil)
        let answered = recorder.all.map(\.requestedTime)
        #expect(answered == [first, later.last!], "answered \(answered)")
        let stats = provider.statistics
        #expect(stats.requests == 6 && stats.dropped == 4 && stats.decoded == 2, "\(stats)")
    }

    @Test("Nearby positions showing the same key frame come from the cache; the cache drops the least recently used by bytes")
    func cache() throws {
        let path = try Fixtures.path(.withChapters)   // key frames every second
        let recorder = ThumbnailRecorder()
        let size = ThumbnailSize.height(60)
        let bytes = ThumbnailSize.height(60).pixels(displayWidth: 160, displayHeight: 120)
        let perPicture = bytes.width * bytes.height * 4
        // Room for two pictures, not three.
        let provider = ThumbnailProvider(source: MediaSource(path: path), size: size,
                                         cacheBytes: perPicture * 2 + perPicture / 2, deliver: recorder.deliver)
        defer { provider.close() }
        let a = try recorder.ask(provider, 1.05).outcome.get()
        let a2 = try recorder.ask(provider, 0.8).outcome.get()     // nearest key frame is still 1 s
        #expect(!a.fromCache && a2.fromCache && a2.frameTime == a.frameTime && a2.requestedTime == 0.8)
        #expect(try !recorder.ask(provider, 2.0).outcome.get().fromCache)
        #expect(try recorder.ask(provider, 1.2).outcome.get().fromCache)   // 1 s used again: 2 s is now the oldest
        #expect(try !recorder.ask(provider, 3.0).outcome.get().fromCache)  // evicts 2 s
        #expect(provider.statistics.cachedPictures == 2 && provider.statistics.cachedBytes == perPicture * 2)
        #expect(try recorder.ask(provider, 1.0).outcome.get().fromCache)
        #expect(try !recorder.ask(provider, 2.1).outcome.get().fromCache, "2 s should have been evicted")
        // Another size is another picture.
        #expect(try !recorder.ask(provider, 3.0, size: .height(61)).outcome.get().fromCache)
    }

    @Test("The cache on its own: least recently used first, by bytes, nothing larger than the budget")
    func cacheUnit() {
        func picture(_ bytes: Int) -> Thumbnail {
            Thumbnail(requestedTime: 0, frameTime: 0, width: bytes / 4, height: 1, pixels: Data(count: bytes), fromCache: false)
        }
        var cache = ThumbnailCache(budget: 1000)
        let key = { (n: Int64) in ThumbnailCache.Key(picture: n, size: .standard) }
        cache.insert(picture(400), for: key(1))
        cache.insert(picture(400), for: key(2))
        _ = cache.lookup(key(1))
        cache.insert(picture(400), for: key(3))
        #expect(cache.contains(key(1)) && !cache.contains(key(2)) && cache.contains(key(3)) && cache.bytes == 800)
        cache.insert(picture(1200), for: key(4))
        #expect(!cache.contains(key(4)) && cache.bytes == 800)
        cache.insert(picture(1000), for: key(5))
        #expect(cache.count == 1 && cache.bytes == 1000)
        var none = ThumbnailCache(budget: 0)
        none.insert(picture(4), for: key(1))
        #expect(none.count == 0)
    }

    struct BadCase: Sendable, CustomTestStringConvertible {
        let name: String
        let check: @Sendable (ThumbnailError) -> Bool
        let make: @Sendable () throws -> String
        var testDescription: String { name }
    }

    static let badCases: [BadCase] = [
        BadCase(name: "missing file", check: { $0 == .unreadable(.fileNotFound("/nonexistent/reel/clip.mp4")) }) {
            "/nonexistent/reel/clip.mp4"
        },
        BadCase(name: "audio only", check: { if case .noPicture = $0 { true } else { false } }) {
            try Fixtures.path(.audioOnly)
        },
        BadCase(name: "not media", check: { $0.code == "not_media_file" }) {
            let url = Fixtures.directory.appendingPathComponent("thumbnail-text.mp4")
            try Data("This is a text file, not a movie.\n".utf8).write(to: url)
            return url.path
        },
        BadCase(name: "truncated MP4 without its index", check: { $0.code == "corrupt_data" || $0.code == "not_media_file" }) {
            try Fixtures.derived("truncated", ext: "mp4", from: .h264MP4) { source, destination in
                let data = try Data(contentsOf: URL(fileURLWithPath: source))
                try data.prefix(data.count / 2).write(to: URL(fileURLWithPath: destination))
            }
        },
    ]

    @Test("Bad input gives a clear error for every request, and no crash or hang", arguments: badCases)
    func badInput(_ c: BadCase) throws {
        let path = try c.make()
        let recorder = ThumbnailRecorder()
        let provider = ThumbnailProvider(source: MediaSource(path: path), deliver: recorder.deliver)
        defer { provider.close() }
        for t in [0.0, 1.0] {
            let error = try #require(try recorder.ask(provider, t).error, "\(c.name) gave a picture")
            #expect(c.check(error), "\(c.name): \(error)")
            #expect(!error.message.isEmpty)
        }
    }

    @Test("A truncated file whose index promises more: pictures where the data is, an error where it is not")
    func truncatedWithIndex() throws {
        let path = try Fixtures.derived("faststart-truncated", ext: "mp4", from: .longSmall) { source, destination in
            let whole = destination + ".whole.mp4"
            defer { try? FileManager.default.removeItem(atPath: whole) }
            try Command.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin", "-y", "-i", source,
                             "-c", "copy", "-movflags", "+faststart", whole])
            let data = try Data(contentsOf: URL(fileURLWithPath: whole))
            try data.prefix(data.count / 3).write(to: URL(fileURLWithPath: destination))
        }
        let recorder = ThumbnailRecorder()
        let provider = ThumbnailProvider(source: MediaSource(path: path), deliver: recorder.deliver)
        defer { provider.close() }
        #expect(try recorder.ask(provider, 4).thumbnail != nil, "the start of the file is whole")
        let late = try #require(try recorder.ask(provider, 55).error, "a picture from data that is not there")
        #expect(late.code == "corrupt_data", "\(late)")
    }

    @Test("Remote media: no preview while streaming, and no connection is opened for it")
    func remote() throws {
        let server = try WebServer.shared()
        let url = try server.publish(try Fixtures.path(.h264MP4), as: "preview-remote.mp4")
        let source = try MediaSource(parsing: url)
        #expect(source.previewAvailability == .unavailable(reason: "No preview while streaming"))
        #expect(MediaSource(path: "/tmp/x.mp4").previewAvailability == .available)
        let recorder = ThumbnailRecorder()
        let provider = ThumbnailProvider(source: source, deliver: recorder.deliver)
        defer { provider.close() }
        let error = try #require(try recorder.ask(provider, 1).error)
        #expect(error == .unavailable("No preview while streaming"))
        #expect(error.message == "No preview while streaming")
        let log = server.root.deletingLastPathComponent().appendingPathComponent("logs/access.log")
        let requests = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        #expect(!requests.contains("preview-remote.mp4"), "the provider reached the server:\n\(requests)")
    }

    @Test("Closing while a decode is under way returns, and nothing is delivered after it")
    func closeDuringDecode() throws {
        let path = try Fixtures.path(.longSmall)
        for delay in [0, 2_000, 10_000] as [UInt32] {
            let recorder = ThumbnailRecorder()
            let provider = ThumbnailProvider(source: MediaSource(path: path), deliver: recorder.deliver)
            provider.request(at: 30)
            usleep(delay)
            provider.close()
            let count = recorder.all.count
            usleep(100_000)
            #expect(recorder.all.count == count, "a delivery came after close")
            provider.request(at: 10)   // ignored once closed
            usleep(50_000)
            #expect(recorder.all.count == count, "a request after close was answered")
        }
    }

    @Test("The decode thread runs at lowered priority")
    func lowPriority() throws {
        let recorder = ThumbnailRecorder()
        let provider = ThumbnailProvider(source: MediaSource(path: try Fixtures.path(.withChapters)), deliver: recorder.deliver)
        defer { provider.close() }
        _ = try recorder.ask(provider, 1)
        // /proc/self/task/<tid>/comm names each thread; field 19 of its stat is its nice value.
        let tasks = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")
        let nice = tasks.compactMap { tid -> Int? in
            let comm = (try? String(contentsOfFile: "/proc/self/task/\(tid)/comm", encoding: .utf8)) ?? ""
            guard comm.trimmingCharacters(in: .whitespacesAndNewlines) == "reel.thumbs",
                  let stat = try? String(contentsOfFile: "/proc/self/task/\(tid)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return nil }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return Int(fields[16])   // fields after "(comm)" start at field 3
        }
        #expect(!nice.isEmpty && nice.allSatisfy { $0 == Int(ThumbnailProvider.niceness) },
                "thumbnail threads' nice values: \(nice)")
    }
}
