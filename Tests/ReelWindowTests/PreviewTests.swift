import Foundation
import ReelTestSupport
import Testing

/// The hover preview as a person meets it: the real window under Xvfb, the pointer moved by
/// xdotool, the card read from the accessibility tree, and its picture from screenshots
/// against FFmpeg's own conversion of the key frame (ffprobe's list says which).
/// One at a time: the machine is small and the card follows real pointer timing.
@Suite("Hover preview", .serialized)
struct PreviewTests {
    /// The desktop the tests at the usual screen size take turns on.
    static let desktops = SharedDesktop.standard

    /// Runs `body` with Reel opened on `clip` (as `Session` does) on the shared desktop.
    static func withSession(clip: String, arguments: [String] = [], timecode: Bool = true, settings: [String] = [],
                            _ body: (Session) throws -> Void) throws {
        try desktops.use { desktop in
            try body(try Session(clip: clip, desktop: desktop, arguments: arguments, timecode: timecode, settings: settings))
        }
    }

    /// The chapters fixture: 160x120 at 10 fps, key frames every second, chapters "Opening"
    /// (0–2 s) and "Main part" (2–6 s). The window opens it 640x480, so pictures are 96 high.
    struct Session {
        let desktop: Desktop
        let app: ReelApp
        let movie: AccessibleNode
        let bar: AccessibleNode

        /// Reel with `clip`, paused at the start, time shown as timecode (H:MM:SS:FF) so the
        /// card's time tells the tenth of a second at 10 fps.
        /// `settings`: more lines of Reel's settings.
        init(clip: String, desktop: Desktop? = nil, arguments: [String] = [], timecode: Bool = true,
             settings: [String] = []) throws {
            let desktop = try desktop ?? Desktop()
            self.desktop = desktop
            if timecode || !settings.isEmpty {
                let folder = desktop.home.appendingPathComponent("config/glib-2.0/settings")
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                let lines = ["[io/github/reel/Reel]"] + (timecode ? ["show-frames=true"] : []) + settings
                try (lines.joined(separator: "\n") + "\n").write(to: folder.appendingPathComponent("keyfile"),
                                                                atomically: true, encoding: .utf8)
            }
            app = try ReelApp(on: desktop, arguments: ["--paused"] + arguments + [clip])
            // The picture, from the read that finds the clip loaded (paused).
            let tree = try app.waitForTree("the picture and the Play button") { tree in
                tree.contains { $0.name == "Video" } && tree.contains { $0.name == "Play" }
            }
            movie = tree.first { $0.name == "Video" }!
            // Reaching for the scrubber shows the controls, as for a person.
            try desktop.glide(to: movie.x + movie.width / 2, movie.y + movie.height / 2)
            try desktop.glide(to: movie.x + movie.width / 2, movie.y + movie.height - 30)
            bar = try app.element(named: "Position", role: "slider")
        }

        /// A point on the scrubber, `fraction` of the way along its extents.
        func point(_ fraction: Double) -> (x: Int, y: Int) {
            (bar.x + Int((Double(bar.width) * fraction).rounded()), bar.y + bar.height / 2)
        }

        /// The card when it shows.
        func card() throws -> AccessibleNode? {
            try app.accessibleTree().first { $0.name.hasPrefix("Preview at ") && $0.states.contains("visible") }
        }

        /// Moves the pointer along the scrubber to `fraction` and waits for the card to say
        /// a time other than `previous`.
        @discardableResult
        func hover(_ fraction: Double, after previous: Preview? = nil) throws -> Preview {
            let p = point(fraction)
            try desktop.glide(to: p.x, p.y, steps: 3)
            var shown: Preview?
            try Desktop.wait("the preview card at \(fraction) of the scrubber", log: app.log, timeout: 15) {
                guard let node = try card() else { return false }
                shown = Preview(node)
                return shown?.text != previous?.text
            }
            return shown!
        }

        /// The picture in the card, as drawn, once two screenshots agree (it arrives a moment
        /// after the card).
        func cardPicture(_ name: String) throws -> (png: String, node: AccessibleNode) {
            try PreviewTests.cardPicture(app, on: desktop, name)
        }
    }

    /// The picture in `app`'s card, as drawn, once two screenshots agree and `accept` takes it
    /// (its node, and the pixels inside the rounded corners as PNG).
    static func cardPicture(_ app: ReelApp, on desktop: Desktop, _ name: String,
                            accept: (AccessibleNode, Data) throws -> Bool = { _, _ in true }) throws -> (png: String, node: AccessibleNode) {
        var previous: Data?
        var result: (String, AccessibleNode)?
        try Desktop.wait("a settled preview picture", log: app.log, timeout: 15) {
            guard let node = try app.accessibleTree().first(where: { $0.name == "Preview picture" && $0.states.contains("visible") }),
                  node.width > 20 else { return false }
            let shot = try desktop.screenshot("\(name)-screen")
            let png = desktop.home.appendingPathComponent("\(name).png").path
            // The corners are rounded: compare inside them.
            // (Without ImageMagick's date chunks, so equal pixels make equal files.)
            try Command.run(["convert", shot, "-crop", "\(node.width - 12)x\(node.height - 12)+\(node.x + 6)+\(node.y + 6)",
                             "+repage", "-strip", "-define", "png:exclude-chunks=date,time", png])
            let data = FileManager.default.contents(atPath: png)
            defer { previous = data }
            result = (png, node)
            guard let data, data == previous else { return false }
            return try accept(node, data)
        }
        return result!
    }

    /// What the card says: "Preview at 0:00:02:03, Main part — No preview while streaming".
    struct Preview: CustomStringConvertible {
        let text: String
        let time: String
        let chapter: String?
        let message: String?
        init(_ node: AccessibleNode) {
            text = node.name
            let halves = node.name.dropFirst("Preview at ".count).components(separatedBy: " — ")
            message = halves.count > 1 ? halves[1] : nil
            let parts = halves[0].split(separator: ",", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            time = parts.first ?? ""
            chapter = parts.count > 1 ? parts[1] : nil
        }
        /// Seconds from a timecode at `fps`.
        func seconds(fps: Double = 10) -> Double? {
            let fields = time.split(separator: ":").compactMap { Double($0) }
            guard fields.count == 4 else { return nil }
            return fields[0] * 3600 + fields[1] * 60 + fields[2] + fields[3] / fps
        }
        var description: String { text }
    }

    /// FFmpeg's conversions of the frames at `times` of `clip` to `width`×`height`, cropped as
    /// `cardPicture` crops the screen, by time: one FFmpeg run for all of them (a run's start
    /// costs more than converting a 160×120 frame).
    static func expectedPictures(_ clip: String, at times: [Double], width: Int, height: Int, name: String,
                                 in desktop: Desktop) throws -> [Double: String] {
        let times = times.sorted()
        let pattern = desktop.home.appendingPathComponent("\(name)-%d.png").path
        let select = times.map { "between(t\\,\($0 - 0.001)\\,\($0 + 0.001))" }.joined(separator: "+")
        try Command.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin", "-y", "-i", clip, "-vf",
                         "select='\(select)',scale=\(width):\(height)"
                            + ":flags=bicubic+accurate_rnd+full_chroma_int:in_h_chr_pos=0:in_v_chr_pos=128,"
                            + "crop=\(width - 12):\(height - 12):6:6,format=rgb24",
                         "-fps_mode", "passthrough", "-start_number", "0", pattern])
        // One picture per time, in order, and no more: else the times and pictures do not pair.
        let pictures = times.indices.map { desktop.home.appendingPathComponent("\(name)-\($0).png").path }
        let extra = desktop.home.appendingPathComponent("\(name)-\(times.count).png").path
        guard pictures.allSatisfy({ FileManager.default.fileExists(atPath: $0) }),
              !FileManager.default.fileExists(atPath: extra) else {
            throw Command.Failure(command: ["ffmpeg", "select", select], result: .init(status: -1, stdout: Data(),
                stderr: Data("not one picture per time \(times)".utf8)))
        }
        return Dictionary(uniqueKeysWithValues: zip(times, pictures))
    }

    static func keyFrames(_ clip: String) throws -> [Double] {
        try Command.run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-skip_frame", "nokey", "-show_entries",
                         "frame=best_effort_timestamp_time", "-of", "csv=p=0", clip]).output
            .split(separator: "\n").compactMap { Double($0.trimmingCharacters(in: CharacterSet(charactersIn: ", "))) }
    }

    @Test("Hovering the scrubber shows the time, the chapter and the nearest key frame; moving changes them; leaving hides the card")
    func hover() throws {
        let clip = try Fixtures.path(.withChapters)
        let keys = try Self.keyFrames(clip)
        #expect(keys.count == 6, "key frames \(keys)")
        try Self.withSession(clip: clip) { s in
            var last: Preview?
            var pictures: [String] = []
            var expected: [String: [Double: String]] = [:]
            for (i, fraction) in [0.22, 0.78].enumerated() {
                let preview = try s.hover(fraction, after: last)
                last = preview
                let t = try #require(preview.seconds(), "the card's time \(preview.time) is not a timecode")
                #expect(preview.chapter == (t < 2 ? "Opening" : "Main part"), "\(preview)")
                let (png, node) = try s.cardPicture("card-\(i)")
                #expect(node.height == 96 && node.width == 128, "the picture is \(node.width)×\(node.height), not 128×96")
                // The nearest key frame, or either one when the time is half way between them.
                let distance = keys.map { abs($0 - t) }.min()!
                let candidates = keys.filter { abs(abs($0 - t) - distance) < 0.051 }
                let size = "\(node.width)x\(node.height)"
                let keyPictures = try expected[size] ?? Self.expectedPictures(clip, at: keys, width: node.width, height: node.height,
                                                                              name: "expected-\(size)", in: s.desktop)
                expected[size] = keyPictures
                // Compared two at a time; judged here afterwards.
                let measured = AtOnce.mapInPairs(keys.map { keyPictures[$0]! }) { picture in
                    try PictureOracle.psnr(png, picture)
                }
                var scores: [Double: Double] = [:]
                for (key, score) in zip(keys, measured) { scores[key] = try score.get() }
                let best = scores.max { $0.value < $1.value }!
                #expect(candidates.contains(best.key), "at \(preview.time) the card shows the key frame at \(best.key) (\(scores))")
                #expect(best.value >= 28, "at \(preview.time): \(best.value) dB against FFmpeg's key frame (\(scores))")
                #expect(scores.filter { !candidates.contains($0.key) }.allSatisfy { $0.value < best.value - 6 },
                        "other key frames pass too: \(scores)")
                pictures.append(png)
            }
            #expect(try PictureOracle.psnr(pictures[0], pictures[1]) < 25, "moving along did not change the picture")
            // Off the scrubber, onto the picture: the card goes.
            try s.desktop.glide(to: s.movie.x + s.movie.width / 2, s.movie.y + s.movie.height / 3)
            try Desktop.wait("the card to hide", log: s.app.log, timeout: 10) { try s.card() == nil }
        }
    }

    @Test("A card under a still pointer goes when F makes the window fullscreen and moves the scrubber away")
    func goesWhenTheScrubberMovesAway() throws {
        // The controls stay up, so that only the scrubber moving away can take the card.
        try Self.withSession(clip: try Fixtures.path(.withChapters), settings: ["dont-hide-controls=true"]) { s in
            try s.desktop.click(s.movie.x + 5, s.movie.y + s.movie.height / 2)   // the window focused
            try s.hover(0.5)
            try s.desktop.key("f")
            try Desktop.wait("the window fullscreen", log: s.app.log) {
                (try s.app.accessibleTree().first { $0.name == "Video" }?.width ?? 0) >= s.desktop.width
            }
            // The pointer has not moved; the scrubber is now at the screen's bottom, away from it.
            let bar = try s.app.element(named: "Position", role: "slider")
            let p = s.point(0.5)
            #expect(!(bar.y...(bar.y + bar.height)).contains(p.y), "the scrubber \(bar) is still under the pointer at \(p)")
            try Desktop.wait("the card to go", log: s.app.log, timeout: 10) { try s.card() == nil }
            try s.desktop.key("Escape")
        }
    }

    @Test("The card's time is the time a click at the same place goes to")
    func sameMappingAsTheScrubber() throws {
        try Self.withSession(clip: try Fixtures.path(.withChapters)) { s in
            for fraction in [0.05, 0.5, 0.93] {
                let preview = try s.hover(fraction)
                let p = s.point(fraction)
                try s.desktop.click(p.x, p.y)
                try s.app.waitForElement("the elapsed time \(preview.time) after a click where the card said so") {
                    $0.role == "label" && $0.name == preview.time
                }
            }
        }
    }

    @Test("While the scrubber is dragged the card follows the pointer")
    func followsDrag() throws {
        try Self.withSession(clip: try Fixtures.path(.withChapters)) { s in
            let start = s.point(0.1), end = s.point(0.8)
            try s.desktop.xdotool(["mousemove", String(start.x), String(start.y), "mousedown", "1"])
            var seen: [String] = []
            for step in 1...6 {
                try s.desktop.moveMouse(start.x + (end.x - start.x) * step / 6, start.y)
                // Each step is 0.7 s of media along, so a card that follows says a new time; one
                // that does not is caught by the count below, after this wait gives up.
                try? Desktop.wait("the card after drag step \(step)", timeout: 3) {
                    guard let card = try s.card() else { return false }
                    let time = Preview(card).time
                    guard time != seen.last else { return false }
                    seen.append(time)
                    return true
                }
            }
            let during = try #require(try s.card().map(Preview.init), "no card while dragging (saw \(seen))")
            try s.desktop.xdotool(["mouseup", "1"])
            #expect(Set(seen).count >= 3, "the card did not follow the drag: \(seen)")
            #expect((during.seconds() ?? 0) >= 4, "at 0.8 of 6 s the card says \(during)")
            try s.app.waitForElement("the elapsed time where the drag ended") { $0.role == "label" && $0.name == during.time }
        }
    }

    @Test("Chapter marks sit on the scrubber at chapter starts and go when media without chapters opens")
    func chapterMarks() throws {
        try Self.withSession(clip: try Fixtures.path(.withChapters)) { s in
            // Marks are bright ticks just under the trough; the thumb is at the start (paused at 0).
            let ticks = try Self.ticks(s, name: "marks")
            #expect(ticks.count == 1, "ticks at \(ticks) (one chapter starts inside the media)")
            if let x = ticks.first {
                // Over the tick, the card says the chapter's start.
                try s.desktop.glide(to: x, s.bar.y + s.bar.height / 2, steps: 3)
                var preview: Preview?
                try Desktop.wait("the card over the mark", timeout: 15) {
                    preview = try s.card().map(Preview.init)
                    return preview != nil
                }
                let t = try #require(preview?.seconds())
                #expect(abs(t - 2) <= 0.15, "over the mark the card says \(preview!) instead of the chapter start 2 s")
                #expect(preview?.chapter == "Main part" || preview?.chapter == "Opening")
            }
            // Another file opened in the same window: its scrubber has no marks.
            try s.desktop.start([ReelApp.binary, try Fixtures.path(.solidRed)])
            try Desktop.wait("the other file", timeout: 20) { s.app.title.contains("solid-red") }
            try s.desktop.glide(to: s.movie.x + s.movie.width / 2, s.movie.y + s.movie.height / 2)
            try s.desktop.glide(to: s.movie.x + s.movie.width / 2, s.movie.y + s.movie.height - 30)
            try Desktop.wait("no marks on the new scrubber", timeout: 15) { try Self.ticks(s, name: "no-marks").isEmpty }
        }
    }

    /// Screen x of the bright ticks under the scrubber's trough (left of the thumb excluded).
    static func ticks(_ s: Session, name: String) throws -> [Int] {
        let bar = try s.app.element(named: "Position", role: "slider")
        let shot = try s.desktop.screenshot(name)
        // The slider's extents below its trough (which runs through their middle; the theme's
        // padding decides how far below the marks sit): each pixel column's brightest pixel.
        let top = bar.height / 2 + 3
        let result = try Command.run(["convert", shot, "-crop", "\(bar.width)x\(bar.height - top)+\(bar.x)+\(bar.y + top)",
                                      "+repage", "-colorspace", "gray", "-depth", "8", "txt:-"])
        var brightest: [Int: Int] = [:]
        for line in result.output.split(separator: "\n") where !line.hasPrefix("#") {
            // "12,3: (201)  #C9C9C9  gray(201)"
            guard let comma = line.firstIndex(of: ","), let x = Int(line[..<comma]),
                  let open = line.firstIndex(of: "("), let close = line.firstIndex(of: ")"),
                  let level = Int(line[line.index(after: open)..<close].split(separator: ",")[0]
                                    .trimmingCharacters(in: .whitespaces).split(separator: ".")[0]) else { continue }
            brightest[x] = max(brightest[x] ?? 0, level)
        }
        let columns = brightest.sorted { $0.key < $1.key }.map { (x: $0.key, level: $0.value) }
        // A tick is a column brighter than the bar a few pixels to either side of it: the
        // picture showing through the bar (a colour bar's edge) is brighter on one side only.
        func background(_ x: Int) -> Int { max(brightest[x - 4] ?? 255, brightest[x + 4] ?? 255) }
        var ticks: [Int] = []
        for c in columns where c.x > 24 && c.level > background(c.x) + 40 {
            if let last = ticks.last, c.x - (last - bar.x) <= 3 { continue }
            ticks.append(bar.x + c.x)
        }
        return ticks
    }

    @Test("Remote media: the card says there is no preview while streaming")
    func remote() throws {
        let server = try WebServer.shared()
        let url = try server.publish(try Fixtures.path(.withChapters), as: "preview-window.mkv")
        try Self.withSession(clip: url) { s in
            let preview = try s.hover(0.5)
            #expect(preview.seconds() != nil)
            #expect(preview.message == "No preview while streaming", "\(preview)")
            #expect(try !s.app.accessibleTree().contains { $0.name == "Preview picture" && $0.states.contains("visible") })
        }
    }

    @Test("The card stays inside the window at the scrubber's ends, above the controls")
    func staysInside() throws {
        try Self.withSession(clip: try Fixtures.path(.h264MP4), timecode: false) { s in
            let window = try s.app.accessibleTree().first { $0.role == "frame" }!
            for fraction in [0.0, 1.0] {
                try s.hover(fraction)
                let card = try #require(try s.card())
                #expect(card.x >= s.movie.x && card.x + card.width <= s.movie.x + s.movie.width,
                        "card \(card) outside the picture \(s.movie) at \(fraction) (window \(window))")
                #expect(card.y + card.height <= s.bar.y, "the card \(card) covers the scrubber \(s.bar)")
            }
        }
    }

    @Test("Fullscreen on a 1920x1080 screen: pictures 160 pixels high, the card inside the screen")
    func fullscreenSize() throws {
        let desktop = try Desktop(width: 1920, height: 1080)
        let s = try Session(clip: try Fixtures.path(.h264MP4), desktop: desktop, arguments: ["--fullscreen"], timecode: false)
        try Desktop.wait("fullscreen", timeout: 15) { try s.app.geometry().width == 1920 }
        let bar = try s.app.element(named: "Position", role: "slider")
        try desktop.glide(to: bar.x + bar.width * 3 / 5, bar.y + bar.height / 2)
        try Desktop.wait("the card", timeout: 15) { try s.card() != nil }
        let (_, picture) = try s.cardPicture("fullscreen-card")
        #expect(picture.height == 160 && picture.width == 284, "the picture is \(picture.width)×\(picture.height)")
        let card = try #require(try s.card())
        #expect(card.x >= 0 && card.x + card.width <= 1920 && card.y + card.height <= bar.y, "card \(card), scrubber \(bar)")
    }
}
