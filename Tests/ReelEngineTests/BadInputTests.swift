import Foundation
import ReelTestSupport
@testable import ReelEngine
import Testing

/// Missing, empty, wrong, truncated, corrupt and unsupported input: a typed error, quickly,
/// with no crash, no hang and no thread left behind.
@Suite("Bad input")
struct BadInputTests {
    static func file(_ name: String, _ contents: Data) throws -> String {
        let url = Fixtures.directory.appendingPathComponent("bad-\(name)")
        try contents.write(to: url)
        return url.path
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let code: String
        let make: @Sendable () throws -> String
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "missing file", code: "file_not_found") { "/nonexistent/reel/clip.mp4" },
        Case(name: "empty file", code: "not_media_file") { try file("empty.mp4", Data()) },
        Case(name: "text named .mp4", code: "not_media_file") {
            try file("text.mp4", Data("This is a text file, not a movie.\n".utf8))
        },
        Case(name: "random bytes", code: "not_media_file") {
            var rng = SplitMix64(seed: 1)
            return try file("random.mkv", Data((0..<300_000).map { _ in UInt8(truncatingIfNeeded: rng.next()) }))
        },
        Case(name: "truncated MP4 (index at the end is gone)", code: "corrupt_data") {
            try Fixtures.derived("truncated", ext: "mp4", from: .h264MP4) { source, destination in
                let data = try Data(contentsOf: URL(fileURLWithPath: source))
                try data.prefix(data.count / 2).write(to: URL(fileURLWithPath: destination))
            }
        },
        Case(name: "unsupported codec", code: "unsupported_codec") {
            // Matroska with the codec ID renamed to one no decoder knows.
            try Fixtures.derived("unknown-codec", ext: "mkv", from: .videoOnlyMKV) { source, destination in
                var data = try Data(contentsOf: URL(fileURLWithPath: source))
                let id = Data("V_MPEG4/ISO/AVC".utf8)
                guard let range = data.range(of: id) else { throw CocoaError(.fileReadCorruptFile) }
                data.replaceSubrange(range, with: Data("V_REEL/UNKNOWN!".utf8))
                try data.write(to: URL(fileURLWithPath: destination))
            }
        },
        Case(name: "directory", code: "not_media_file") { Fixtures.directory.path },
        Case(name: "unsupported scheme", code: "unsupported_source") { "gopher://example.com/video.mp4" },
    ]

    @Test("Ends in failed with the right code", arguments: cases)
    func failsClearly(_ c: Case) throws {
        let path = try c.make()
        var owner = 0
        do {
            let test = TestPlayer()
            owner = test.player.threadOwner
            test.player.open(path)
            let state = try test.waitForState(timeout: 20, "failure") { state in
                if case .failed = state { return true }
                return state == .ready || state == .playing
            }
            #expect(state.error?.code == c.code, "\(c.name): \(state)")
            #expect(!(state.error?.message.isEmpty ?? true))
            // The player stays usable: a good file opens afterwards.
            try test.open(try Fixtures.path(.videoOnly))
        }
        // The player is gone; so are all its threads.
        #expect(EngineThread.liveCount(owner: owner) == 0, "threads left: \(EngineThread.liveCount(owner: owner))")
    }

    @Test("Damaged packets in a good file are skipped and counted; playback reaches the end")
    func corruptPacketsAreSkipped() throws {
        let path = try Fixtures.derived("damaged-middle", ext: "ts", from: .h264TS) { source, destination in
            var data = try Data(contentsOf: URL(fileURLWithPath: source))
            var rng = SplitMix64(seed: 3)
            // Scribble over the middle third, sparing TS sync bytes so the demuxer resyncs.
            let range = (data.count / 3)..<(2 * data.count / 3)
            for i in stride(from: range.lowerBound, to: range.upperBound, by: 97) where data[i] != 0x47 {
                data[i] = UInt8(truncatingIfNeeded: rng.next())
            }
            try data.write(to: URL(fileURLWithPath: destination))
        }
        let test = TestPlayer(audio: .null) { $0.freewheel = true; $0.autoplay = true }
        let presenter = HeadlessPresenter(player: test.player, rate: nil)
        presenter.start()
        defer { presenter.stop() }
        try test.open(path)
        let end = try test.waitForState("the end") { $0 == .ended || $0.error != nil }
        #expect(end == .ended)
        let stats = test.player.statistics
        #expect(stats.decodeErrors > 0, "no decode errors counted for a damaged file")
        #expect(stats.framesShown > 0)
    }

    @Test("A player closed while loading a slow source does not hang")
    func closeWhileLoading() throws {
        // A listening socket that never answers: the open blocks until it is cancelled.
        let server = try SilentServer()
        var owner = 0
        do {
            let test = TestPlayer()
            owner = test.player.threadOwner
            test.player.open("http://127.0.0.1:\(server.port)/never.mp4")
            try test.waitForState("loading") { $0 == .loading }
            usleep(200_000)
            let mark = test.recorder.count
            test.player.close()
            try test.waitForState(from: mark, timeout: 5, "closed") { $0 == .closed }
            #expect(test.player.liveThreadCount == 1, "only the control thread should remain")
        }
        #expect(EngineThread.liveCount(owner: owner) == 0)
    }
}
