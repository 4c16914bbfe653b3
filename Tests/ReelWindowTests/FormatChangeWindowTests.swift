import Foundation
import ReelTestSupport
import Testing

/// The window across mid-stream format changes: a picture whose size, aspect, bit depth and
/// chroma subsampling change within one file must be drawn as FFmpeg converts that frame,
/// letterboxed for its own aspect, whatever the renderer drew before it.
/// Threading: serialised (one Xvfb and GL rasteriser at a time); the tests take turns on one desktop.
@Suite("Mid-stream format changes in the window", .serialized)
struct FormatChangeWindowTests {
    static let joined = Fixtures.Spec.windowFormatChanges
    static let threshold = MovieRendererTests.threshold
    /// The desktop the tests take turns on, each from a clean slate.
    static let desktops = SharedDesktop.standard

    /// One moment of the joined file: the segment it is in, and how FFmpeg converts it.
    /// Threading: a value type.
    struct Moment: Sendable {
        /// Seconds into the joined file: the middle of frame 12 of its segment (2 s segments, 25 fps).
        let time: Double
        let segment: Int
        let width: Int, height: Int
        let oracle: PictureOracle.Conversion
    }

    static let left = PictureOracle.Conversion(matrix: "bt709", range: "tv", chromaPosition: .left)
    static let inA = Moment(time: 0.5, segment: 0, width: 640, height: 480, oracle: left)
    static let inB = Moment(time: 2.5, segment: 1, width: 640, height: 360, oracle: left)
    // 4:2:2: chroma co-sited with the left luma sample, on every row.
    static let inC = Moment(time: 4.5, segment: 2, width: 640, height: 360,
                            oracle: .init(matrix: "bt709", range: "tv", chromaPosition: .init(horizontal: 0, vertical: 0)))
    static let inD = Moment(time: 6.5, segment: 3, width: 640, height: 480, oracle: left)

    /// The drawn picture against FFmpeg's conversion of the same frame of the segment's own file
    /// (FFmpeg's command line would scale the joined file's later segments to the first one's
    /// size and format).
    static func check(_ drawn: String, _ moment: Moment, on desktop: Desktop, name: String) throws {
        let segment = try joined.segmentPaths[moment.segment]
        let oracle = desktop.home.appendingPathComponent("\(name)-ffmpeg.png").path
        try PictureOracle.convert(segment, frame: MovieRendererTests.frameIndex, moment.oracle, to: oracle)
        let psnr = try PictureOracle.psnr(drawn, oracle)
        print("PSNR \(name) vs FFmpeg (\(moment.oracle)): \(String(format: "%.2f", psnr)) dB  [\(drawn) | \(oracle)]")
        #expect(psnr >= threshold, "\(name): \(psnr) dB; drawn \(drawn), FFmpeg \(oracle)")
    }

    @Test("Opened paused after a change, the new picture is FFmpeg's and letterboxed for its aspect")
    func pausedAfterChange() throws {
        let clip = try Self.joined.path
        try Self.desktops.use { desktop in
            // The window takes the first segment's shape, 640×480; the 640×360 picture fits 1:1.
            // (The header bar and the controls, which a pause keeps up, would lie over the bars.)
            try desktop.writeSettings(["hide-controls-while-paused=true"])
            let app = try ReelApp(on: desktop, arguments: ["--paused", "--start", String(Self.inB.time), clip])
            defer { app.stop() }
            let drawn = try app.savePicture(width: Self.inB.width, height: Self.inB.height, name: "paused-in-b")
            try Self.check(drawn, Self.inB, on: desktop, name: "paused-in-b")
            // On screen: black bars above the picture (the controls may cover the one below), and
            // the picture between them.
            let movie = try app.element(named: "Video")
            let bar = (movie.height - Self.inB.height * movie.width / Self.inB.width) / 2
            #expect(bar >= 50, "the video area \(movie) leaves no room for bars around a 16:9 picture")
            let shot = try desktop.screenshot("paused-in-b-screen")
            let top = try ScreenImage.average(shot, x: movie.x + 4, y: movie.y + 4, width: movie.width - 8, height: bar - 8)
            let picture = try ScreenImage.average(shot, x: movie.x + 4, y: movie.y + bar + 4, width: movie.width - 8, height: 40)
            let black = ScreenImage.Color(r: 0, g: 0, b: 0)
            #expect(top.distance(to: black) < 6, "the bar above the picture is \(top), not black")
            #expect(picture.distance(to: black) > 40, "the picture's first rows are \(picture): not drawn where 16:9 puts them")
        }
    }

    @Test("Stepping across each change redraws the picture at its new size and format, as FFmpeg converts it")
    func acrossChanges() throws {
        let clip = try Self.joined.path
        try Self.desktops.use { desktop in
            let app = try ReelApp(on: desktop, arguments: ["--paused", "--start", String(Self.inA.time), clip])
            defer { app.stop() }
            // 4:2:0 8-bit 640×480 first, so the renderer's textures have that shape when the change comes.
            var drawn = try app.savePicture(width: Self.inA.width, height: Self.inA.height, name: "in-a")
            try Self.check(drawn, Self.inA, on: desktop, name: "in-a")
            // Two seconds on at a time, into the next segment (an exact seek, over MPRIS): the size
            // alone changes (640×360), then the format alone (4:2:2 10-bit), then both back.
            for (moment, name) in [(Self.inB, "in-b"), (Self.inC, "in-c"), (Self.inD, "in-d")] {
                try desktop.run(["gdbus", "call", "--session", "--dest", "org.mpris.MediaPlayer2.reel",
                                 "--object-path", "/org/mpris/MediaPlayer2", "--method", "org.mpris.MediaPlayer2.Player.Seek",
                                 "2000000"])
                drawn = try app.savePicture(changedTo: moment, from: drawn, name: name)
                try Self.check(drawn, moment, on: desktop, name: name)
            }
        }
    }

    @Test("Played across a change to the end, the last picture drawn is FFmpeg's last frame, at its size and format")
    func playedToTheEnd() throws {
        let clip = try Self.joined.path
        try Self.desktops.use { desktop in
            // From the second segment (640×360 4:2:0) through the third (4:2:2 10-bit) and into
            // the fourth (640×480 4:2:0), drawn as it plays, to the end, where the last picture stays.
            let app = try ReelApp(on: desktop, arguments: ["--start", "3.5", clip])
            defer { app.stop() }
            let last = Moment(time: 8, segment: 3, width: 640, height: 480, oracle: Self.left)
            // The end, as the desktop's media controls see it (MPRIS): stopped playing, at 8 s.
            try Desktop.wait("the end of play", log: app.log, timeout: 60) {
                let status = try MPRISTests.playerctl(desktop, ["status"])
                let position = Double(try MPRISTests.playerctl(desktop, ["position"])) ?? 0
                return status != "Playing" && status != "" && position > 7.9
            }
            let drawn = try app.savePicture(changedTo: last, name: "at-the-end")
            let segment = try Self.joined.segmentPaths[last.segment]
            let frames = try Self.joined.segments[last.segment].seconds * 25
            let oracle = desktop.home.appendingPathComponent("at-the-end-ffmpeg.png").path
            try PictureOracle.convert(segment, frame: frames - 1, last.oracle, to: oracle)
            let psnr = try PictureOracle.psnr(drawn, oracle)
            print("PSNR at-the-end vs FFmpeg's last frame: \(String(format: "%.2f", psnr)) dB  [\(drawn) | \(oracle)]")
            #expect(psnr >= Self.threshold, "the end: \(psnr) dB; drawn \(drawn), FFmpeg \(oracle)")
        }
    }
}

extension ReelApp {
    /// Saves the picture once it is no longer the one saved at `before`, is drawn at `moment`'s
    /// size, and two saves in a row agree (a seek is on its way, or play: until then another
    /// picture is drawn).
    func savePicture(changedTo moment: FormatChangeWindowTests.Moment, from before: String? = nil, name: String,
                     timeout: Double = 40) throws -> String {
        let old = before.flatMap { FileManager.default.contents(atPath: $0) }
        return try saveSettledPicture("a settled \(moment.width)×\(moment.height) picture", name: name,
                                      timeout: timeout) { size, png in
            size.width == moment.width && size.height == moment.height && png != old
        }
    }
}
