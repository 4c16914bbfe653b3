import Foundation
import ReelEngine
import ReelTestSupport
import Testing

/// What the engine reads of a picture's colour: `reel-tool info` on HDR10 (with and without
/// mastering metadata), HLG and BT.2020 SDR says what `ffprobe` says: the stream's primaries
/// and transfer, and the first frame's mastering display and content light level; and each
/// decoded picture carries the same, which decides its colour plan.
@Suite("Picture colour")
struct PictureColourTests {
    /// What ffprobe says of the first video stream and its first frame. Threading: a value type.
    private struct Probe {
        var primaries: String?
        var transfer: String?
        var masteringPeak: Double?
        var masteringBlack: Double?
        var maxCLL: Int?
        var maxFALL: Int?
    }

    private func ffprobe(_ path: String) throws -> Probe {
        func json(_ arguments: [String]) throws -> [String: Any] {
            let result = try Command.run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-of", "json"] + arguments + [path])
            return try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        }
        let stream = try #require((try json(["-show_entries", "stream=color_primaries,color_transfer"])["streams"]
            as? [[String: Any]])?.first)
        var probe = Probe(primaries: stream["color_primaries"] as? String, transfer: stream["color_transfer"] as? String)
        let frames = try json(["-read_intervals", "%+#1", "-show_frames"])["frames"] as? [[String: Any]]
        for side in (frames?.first?["side_data_list"] as? [[String: Any]]) ?? [] {
            if let peak = side["max_luminance"] as? String { probe.masteringPeak = rational(peak) }
            if let black = side["min_luminance"] as? String { probe.masteringBlack = rational(black) }
            if let cll = side["max_content"] as? Int { probe.maxCLL = cll }
            if let fall = side["max_average"] as? Int { probe.maxFALL = fall }
        }
        return probe
    }

    private func rational(_ text: String) -> Double? {
        let parts = text.split(separator: "/").compactMap { Double($0) }
        return parts.count == 2 && parts[1] != 0 ? parts[0] / parts[1] : parts.count == 1 ? parts[0] : nil
    }

    private func info(_ path: String) throws -> [String: Any] {
        let result = try ReelToolTests.tool(["info", path])
        #expect(result.status == 0, "\(result.errors)")
        let info = try ReelToolTests.json(try #require(result.output.split(separator: "\n").first))
        let streams = try #require(info["streams"] as? [[String: Any]])
        return try #require(streams.first { $0["type"] as? String == "video" })
    }

    /// A fixture and what it was made with. Threading: a value type.
    struct Case: Sendable, CustomTestStringConvertible {
        let spec: Fixtures.Spec
        let transfer: String
        let hasMetadata: Bool
        var testDescription: String { spec.name }
    }

    static let cases = [
        Case(spec: .pqWithMetadata, transfer: "smpte2084", hasMetadata: true),
        Case(spec: .pqBare, transfer: "smpte2084", hasMetadata: false),
        Case(spec: .hlg, transfer: "arib-std-b67", hasMetadata: false),
        Case(spec: .bt2020SDR, transfer: "bt2020-10", hasMetadata: false),
    ]

    @Test("info reports each fixture's primaries, transfer and HDR metadata as ffprobe does", arguments: cases)
    func tagsAsFFprobe(_ fixture: Case) throws {
        let spec = fixture.spec, transfer = fixture.transfer, hasMetadata = fixture.hasMetadata
        let path = try Fixtures.path(spec)
        let probe = try ffprobe(path)
        let video = try info(path)
        // What the fixture was made with, so that the comparison cannot pass on two silences.
        #expect(probe.transfer == transfer)
        #expect(probe.primaries == "bt2020")
        #expect(video["color_transfer"] as? String == probe.transfer)
        #expect(video["color_primaries"] as? String == probe.primaries)
        if hasMetadata {
            #expect(probe.masteringPeak == 1000 && probe.maxCLL == 1000 && probe.maxFALL == 400)
        } else {
            #expect(probe.masteringPeak == nil && probe.maxCLL == nil)
        }
        #expect(video["mastering_peak"] as? Double == probe.masteringPeak)
        #expect(video["mastering_black"] as? Double == probe.masteringBlack)
        #expect(video["max_cll"] as? Int == probe.maxCLL)
        #expect(video["max_fall"] as? Int == probe.maxFALL)
    }

    @Test("info reports an SDR BT.709 file's tags as ffprobe does, and no HDR metadata")
    func sdrTags() throws {
        let path = try Fixtures.path(.h264MP4)
        let probe = try ffprobe(path)
        let video = try info(path)
        #expect(video["color_transfer"] as? String == probe.transfer ?? "unknown")
        #expect(video["color_primaries"] as? String == probe.primaries ?? "unknown")
        #expect(video["mastering_peak"] == nil && video["max_cll"] == nil)
        #expect(video["field_order"] as? String == "progressive")
    }
    @Test("Decoded pictures carry their tags and side data as ffprobe reads them, and plan by them")
    func framesCarryColour() throws {
        let metadataPath = try Fixtures.path(.pqWithMetadata)
        let probe = try ffprobe(metadataPath)
        let test = TestPlayer()
        try test.open(metadataPath)
        let hdr10 = try #require(try test.seek(to: 0.4))
        #expect(hdr10.colour.transfer.rawValue == probe.transfer && hdr10.colour.primaries.rawValue == probe.primaries)
        #expect(hdr10.colour.hdr?.mastering?.maxLuminance == probe.masteringPeak)
        #expect(hdr10.colour.hdr?.mastering?.minLuminance == probe.masteringBlack)
        #expect(hdr10.colour.hdr?.maxCLL == probe.maxCLL && hdr10.colour.hdr?.maxFALL == probe.maxFALL)
        #expect(hdr10.fieldOrder == .progressive)
        let plan = try #require(hdr10.colour.plan())
        #expect(plan.peak == 1000 && plan.peakSource == .mastering && plan.mode == .luma && plan.gamutMap != nil)

        try test.open(try Fixtures.path(.hlg))
        let hlg = try #require(try test.seek(to: 0.4))
        #expect(hlg.colour.transfer == .hlg && hlg.colour.primaries == .bt2020 && hlg.colour.hdr == nil)
        #expect(hlg.colour.plan()?.peakSource == .assumed)

        try test.open(try Fixtures.path(.h264MP4))
        let sdr = try #require(try test.seek(to: 0.4))
        #expect(sdr.colour.transfer == .unspecified && sdr.colour.plan() == nil, "SDR BT.709 is drawn as before")
    }
}
