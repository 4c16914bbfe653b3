import Foundation
@testable import ReelEngine
import Testing

/// What Reel takes from yt-dlp's JSON and which format it plays, without yt-dlp: the title,
/// the chapters, a list's first video, and the format that fits the screen in codecs FFmpeg
/// decodes, picture and sound together.
/// Threading: any; no threads.
@Suite("Web pages: what yt-dlp's answer gives")
struct WebPageChoiceTests {
    static func format(_ id: String, height: Int?, v: String? = "avc1.64001f", a: String? = "mp4a.40.2",
                       protocolName: String = "https", tbr: Double? = nil) -> PageFormat {
        PageFormat(id: id, url: "https://example.com/\(id)", protocolName: protocolName, height: height,
                   videoCodec: v, audioCodec: a, bitRate: tbr)
    }

    static func all(_ codec: String) -> Bool { true }

    @Test("The tallest that fits the screen; the later of equals; the shortest when none fits")
    func fits() {
        let formats = [Self.format("360", height: 360), Self.format("720a", height: 720, tbr: 900),
                       Self.format("720b", height: 720, tbr: 1500), Self.format("1080", height: 1080),
                       Self.format("2160", height: 2160)]
        #expect(FormatChoice.best(formats, maxHeight: 1080, decodes: Self.all)?.id == "1080")
        #expect(FormatChoice.best(formats, maxHeight: 800, decodes: Self.all)?.id == "720b")
        #expect(FormatChoice.best(formats, maxHeight: 200, decodes: Self.all)?.id == "360")
        let equal = [Self.format("first", height: 480), Self.format("second", height: 480)]
        #expect(FormatChoice.best(equal, maxHeight: 1080, decodes: Self.all)?.id == "second")
    }

    @Test("Picture and sound together, over http(s) or HLS, in codecs that decode")
    func playable() {
        let formats = [
            Self.format("video-only", height: 1080, a: "none"), Self.format("audio-only", height: nil, v: "none"),
            Self.format("dash", height: 1080, protocolName: "http_dash_segments"),
            Self.format("strange", height: 1080, v: "vp09.00.40.08"),
            Self.format("hls", height: 720, protocolName: "m3u8_native"),
            Self.format("unknown", height: 480, v: nil, a: nil),
        ]
        let noVP9: (String) -> Bool = { !$0.hasPrefix("vp09") }
        #expect(FormatChoice.best(formats, maxHeight: 1080, decodes: noVP9)?.id == "hls")
        #expect(FormatChoice.best(formats, maxHeight: 1080, decodes: Self.all)?.id == "strange")
        #expect(FormatChoice.best(Array(formats.prefix(3)), maxHeight: 1080, decodes: Self.all) == nil)
    }

    @Test("Codec names map to FFmpeg's decoders", arguments: [
        ("avc1.64001F", "h264"), ("hvc1.1.6.L93.B0", "hevc"), ("vp09.00.10.08", "vp9"), ("av01.0.05M.08", "av1"),
        ("mp4a.40.2", "aac"), ("opus", "opus"), ("ec-3", "eac3"),
    ])
    func decoders(codec: String, decoder: String) {
        #expect(FormatChoice.decoderName(codec) == decoder)
        #expect(FormatChoice.decodable(codec))
    }

    @Test("yt-dlp's JSON: title, chapters, formats; a list's first video; nothing for no video")
    func json() throws {
        let single = """
            {"_type": "video", "title": "Night Walk", "duration": 61.5,
             "chapters": [{"start_time": 0, "end_time": 30.5, "title": "Out"}, {"start_time": 30.5, "end_time": 61.5, "title": "Home"}],
             "formats": [{"format_id": "a", "url": "https://cdn.example.com/a.mp4", "protocol": "https", "height": 360,
                          "vcodec": "avc1.4d401e", "acodec": "mp4a.40.2", "tbr": 700},
                         {"format_id": "f", "url": "ftp://example.com/b.mp4"}]}
            """
        let page = try #require(WebPage(json: Data(single.utf8), address: "https://example.com/walk"))
        #expect(page.title == "Night Walk")
        #expect(page.duration == 61.5)
        #expect(page.chapters == [Chapter(start: 0, end: 30.5, title: "Out"), Chapter(start: 30.5, end: 61.5, title: "Home")])
        #expect(page.formats.map(\.id) == ["a"])
        #expect(page.formats.first?.height == 360)

        let list = """
            {"_type": "playlist", "title": "Walks", "entries": [{"title": "First", "url": "https://cdn.example.com/1.mp4"},
                                                                {"title": "Second", "url": "https://cdn.example.com/2.mp4"}]}
            """
        let first = try #require(WebPage(json: Data(list.utf8), address: "https://example.com/walks"))
        #expect(first.title == "First")
        #expect(first.formats.map(\.url) == ["https://cdn.example.com/1.mp4"])

        #expect(WebPage(json: Data(#"{"title": "Words", "formats": []}"#.utf8), address: "x") == nil)
        #expect(WebPage(json: Data("not json".utf8), address: "x") == nil)
        #expect(WebPage(json: Data(#"{"_type": "playlist", "entries": []}"#.utf8), address: "x") == nil)
    }
}

/// The split formats most sites serve, and the end of two demuxers' packets, without threads.
/// Threading: any; no threads.
@Suite("Picture and sound apart")
struct PictureAndSoundApartTests {
    static func format(_ id: String, height: Int?, v: String?, a: String?, tbr: Double? = nil) -> PageFormat {
        PageFormat(id: id, url: "https://example.com/\(id)", height: height, videoCodec: v, audioCodec: a, bitRate: tbr)
    }

    @Test("The tallest picture-only format that fits, with the richest sound-only one; together when as tall")
    func apart() throws {
        let formats = [
            Self.format("a-low", height: nil, v: "none", a: "opus", tbr: 50), Self.format("a-high", height: nil, v: "none", a: "mp4a.40.2", tbr: 128),
            Self.format("v720", height: 720, v: "avc1.64001f", a: "none"), Self.format("v1080", height: 1080, v: "vp09.00.40.08", a: "none"),
            Self.format("both360", height: 360, v: "avc1.42001e", a: "mp4a.40.2"),
        ]
        let chosen = try #require(FormatChoice.choose(formats, maxHeight: 1080, decodes: { _ in true }))
        #expect(chosen.video.id == "v1080")
        #expect(chosen.audio?.id == "a-high")
        let small = try #require(FormatChoice.choose(formats, maxHeight: 360, decodes: { _ in true }))
        #expect(small.video.id == "both360" && small.audio == nil)
        let noSound = try #require(FormatChoice.choose(Array(formats[2...]), maxHeight: 1080, decodes: { _ in true }))
        #expect(noSound.video.id == "both360")
        #expect(FormatChoice.choose(Array(formats[..<2]), maxHeight: 1080, decodes: { _ in true }) == nil)
    }

    @Test("Two demuxers' ends are one end once both came for the same seek; stale ones are left out")
    func ends() {
        var ends = DemuxEnds(sources: 2)
        #expect(ends.ended(serial: 1, error: nil) == nil)
        #expect(ends.ended(serial: 2, error: .networkError("gone")) == nil)
        #expect(ends.ended(serial: 1, error: nil) == nil)
        let both = ends.ended(serial: 2, error: nil)
        #expect(both?.serial == 2 && both?.error == .networkError("gone"))
        var one = DemuxEnds(sources: 1)
        #expect(one.ended(serial: 0, error: nil)?.serial == 0)
    }
}

/// The qualities a person chooses among, and the one asked for, without yt-dlp.
/// Threading: any; no threads.
@Suite("Web pages: qualities")
struct WebQualityTests {
    static let formats = [
        PictureAndSoundApartTests.format("sound", height: nil, v: "none", a: "mp4a.40.2", tbr: 128),
        PictureAndSoundApartTests.format("p480", height: 480, v: "avc1.4d401e", a: "none"),
        PictureAndSoundApartTests.format("both240", height: 240, v: "avc1.42001e", a: "mp4a.40.2"),
        PictureAndSoundApartTests.format("p1080", height: 1080, v: "avc1.640028", a: "none"),
    ]

    @Test("Every picture Reel plays, tallest first, sound-only ones left out")
    func listed() {
        #expect(FormatChoice.qualities(Self.formats, decodes: { _ in true }).map(\.id) == ["p1080", "p480", "both240"])
        // Without a sound to play beside them, picture-only formats are no choice.
        #expect(FormatChoice.qualities(Array(Self.formats.dropFirst()), decodes: { _ in true }).map(\.id) == ["both240"])
    }

    @Test("The quality asked for is played, with the sound beside it when it has none; an unknown one is ignored")
    func asked() throws {
        let chosen = try #require(FormatChoice.choose(Self.formats, maxHeight: 720, asked: "p1080", decodes: { _ in true }))
        #expect(chosen.video.id == "p1080" && chosen.audio?.id == "sound")
        let together = try #require(FormatChoice.choose(Self.formats, maxHeight: 720, asked: "both240", decodes: { _ in true }))
        #expect(together.video.id == "both240" && together.audio == nil)
        let unknown = try #require(FormatChoice.choose(Self.formats, maxHeight: 720, asked: "nope", decodes: { _ in true }))
        #expect(unknown.video.id == "p480")
    }
}
