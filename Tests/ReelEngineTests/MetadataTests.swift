import Foundation
import ReelTestSupport
import ReelEngine
import Testing

@Suite("Metadata")
struct MetadataTests {
    @Test("The duration is announced before the first frame is ready")
    func durationFirst() throws {
        let test = TestPlayer()
        try test.open(try Fixtures.path(.h264MP4))
        let events = test.recorder.all
        let duration = events.firstIndex { if case .durationKnown = $0 { return true }; return false }
        let ready = events.firstIndex { if case .stateChanged(_, .ready) = $0 { return true }; return false }
        #expect(duration != nil && ready != nil && duration! < ready!)
        if case .durationKnown(let d) = events[duration!] { #expect(abs(d - 4) < 0.1) }
    }

    @Test("Title, metadata and chapters are read and chapters count from the start")
    func titleAndChapters() throws {
        let test = TestPlayer()
        try test.open(try Fixtures.path(.withChapters))
        let info = try #require(test.player.mediaInfo)
        #expect(info.title == "Reel chapter test")
        #expect(info.displayTitle == "Reel chapter test")
        #expect((info.metadata["artist"] ?? info.metadata["ARTIST"]) == "Reel")
        #expect(info.chapters.map(\.title) == ["Opening", "Main part"])
        #expect(info.chapters.map(\.start) == [0, 2])
        #expect(info.chapters.last?.end == 6)
    }

    @Test("Tags kept on the sound stream (Ogg's comment header) are the media's title and artist")
    func streamTags() throws {
        let info = try MediaInspector.inspect(MediaSource(path: try Fixtures.path(.taggedOpus)))
        #expect(info.title == "Tagged Song")
        #expect(info.displayTitle == "Tagged Song")
        #expect(info.metadata["artist"] ?? info.metadata["ARTIST"] == "Reel Band")
        #expect(info.metadata["album"] ?? info.metadata["ALBUM"] == "Reel Album")
    }

    @Test("Streams are described: codec, size, rate, aspect; audio rate and channels")
    func streams() throws {
        let info = try MediaInspector.inspect(MediaSource(path: try Fixtures.path(.hevcMKV)))
        let video = try #require(info.videoStream)
        #expect(video.codec == "hevc")
        #expect(video.width == 320 && video.height == 240)
        #expect(video.frameRate == 25)
        #expect(video.sampleAspectRatio == Rational(1, 1))
        let audio = try #require(info.audioStream)
        #expect(audio.codec == "opus")
        #expect(audio.channels == 1)
        #expect(audio.sampleRate == 48000)
        #expect(info.displayTitle.hasPrefix("hevc-25fps"))
    }

    @Test("Paths, file URIs and http(s) URLs are accepted; other schemes are refused")
    func sources() throws {
        #expect(try MediaSource(parsing: "/tmp/a b.mp4").location == .file(path: "/tmp/a b.mp4"))
        #expect(try MediaSource(parsing: "file:///tmp/a%20b.mp4").location == .file(path: "/tmp/a b.mp4"))
        #expect(try MediaSource(parsing: "https://example.com/v").isRemote)
        #expect(try MediaSource(parsing: "clip:with:colons.mp4").location
                == .file(path: FileManager.default.currentDirectoryPath + "/clip:with:colons.mp4"))
        for refused in ["ftp://h/x.mp4", "rtmp://h/live", "data://x", "smb://h/share/v.mkv"] {
            #expect(throws: PlayerError.self, "\(refused)") { try MediaSource(parsing: refused) }
        }
        // FFmpeg protocol prefixes without "//" are file names here, never protocols.
        for name in ["pipe:0", "concat:a.mp4|b.mp4", "subfile:x"] {
            #expect(try MediaSource(parsing: name).location
                    == .file(path: FileManager.default.currentDirectoryPath + "/" + name))
        }
        let test = TestPlayer()
        test.player.open("pipe:0")
        let state = try test.waitForState("failure") { $0.error != nil }
        #expect(state.error?.code == "file_not_found")
    }
}
