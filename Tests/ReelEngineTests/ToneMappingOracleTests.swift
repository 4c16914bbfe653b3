import Foundation
import ReelTestSupport
import Testing

/// `reel-tool frame --png` of pictures that are not SDR BT.709, against FFmpeg's `libplacebo`
/// filter (the library mpv draws with, on Mesa's software Vulkan) showing the same frame on an
/// SDR BT.709 display: HDR10 with and without mastering metadata, HLG and BT.2020 SDR come out
/// as libplacebo draws them, the PQ grey ramp rises as libplacebo's does without clipping, and
/// SDR BT.709 pictures are still exactly libswscale's conversion.
@Suite("Tone mapping against libplacebo")
struct ToneMappingOracleTests {
    /// The frame compared: index 5 (0.2 s at 25 fps), a frame that is not the key frame.
    static let frame = 5
    static let time = "0.2"

    /// A fixture and what Reel must say of it: its kind, its peak and where that came from,
    /// and how its light is tone-mapped. Threading: a value type.
    struct Case: Sendable, CustomTestStringConvertible {
        let spec: Fixtures.Spec
        let signal: String
        let peak: Double?
        let peakSource: String?
        let mode: String
        var testDescription: String { spec.name }
    }

    /// The issue's bar against libplacebo's defaults (its blue-noise dither and spline36 chroma
    /// are not Reel's; the colour mathematics alone scores 60-80 dB, see `tight`).
    static let bar = 30.0
    /// Against libplacebo without dither and with bilinear chroma, as Reel draws.
    static let tightBar = 40.0

    static let cases = [
        Case(spec: .pqWithMetadata, signal: "hdr10", peak: 1000, peakSource: "mastering", mode: "luma"),
        Case(spec: .pqBare, signal: "hdr10", peak: 10000, peakSource: "assumed", mode: "hybrid"),
        Case(spec: .hlg, signal: "hlg", peak: 1000, peakSource: "assumed", mode: "luma"),
        Case(spec: .bt2020SDR, signal: "wide_gamut_sdr", peak: nil, peakSource: nil, mode: "none"),
    ]

    /// Writes Reel's PNG of frame `frame` (at `time`) of `path`; returns its path and the tool's JSON line.
    static func reelPicture(_ path: String, name: String, frame: Int = frame,
                            time: String = time) throws -> (png: String, json: [String: Any]) {
        let png = Fixtures.directory.appendingPathComponent("reel-\(name)-\(getpid()).png").path
        let result = try ReelToolTests.tool(["frame", path, "--at", time, "--png", png])
        #expect(result.status == 0, "\(result.errors)")
        let json = try ReelToolTests.json(try #require(result.output.split(separator: "\n").first))
        #expect(json["index"] as? Int == frame, "frame --at \(time) landed on \(String(describing: json["index"]))")
        return (png, json)
    }

    /// PSNR over R, G and B of two pictures of the same size, as FFmpeg's `psnr` filter averages it.
    static func psnr(_ a: String, _ b: String) throws -> Double {
        let r = try Command.run(["ffmpeg", "-hide_banner", "-nostdin", "-i", a, "-i", b, "-lavfi",
                                 "[0:v]format=rgb24[a];[1:v]format=rgb24[b];[a][b]psnr", "-f", "null", "-"])
        let text = r.errors.components(separatedBy: "average:").last ?? ""
        if text.hasPrefix("inf") { return .infinity }
        return try #require(Double(text.prefix { !$0.isWhitespace }), "no PSNR in: \(r.errors.suffix(300))")
    }

    /// A picture's packed RGB24 bytes, decoded by FFmpeg.
    static func rgb(_ png: String) throws -> Data {
        try Command.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin", "-i", png,
                         "-f", "rawvideo", "-pix_fmt", "rgb24", "-"]).stdout
    }

    @Test("frame --png is libplacebo's BT.2390 picture of the same frame (≥ 30 dB; ≥ 40 dB without dither)",
          arguments: cases)
    func againstLibplacebo(_ fixture: Case) throws {
        let path = try Fixtures.path(fixture.spec)
        let (png, json) = try Self.reelPicture(path, name: fixture.spec.name)
        defer { unlink(png) }
        // What the tool says it found and did, for the picture and, from probing, for the stream.
        let info = try ReelToolTests.tool(["info", path])
        let streams = try ReelToolTests.json(try #require(info.output.split(separator: "\n").first))["streams"] as? [[String: Any]]
        let stream = try #require(streams?.first { $0["type"] as? String == "video" })
        for (said, what) in [(json["colour"], "frame"), (stream["colour_handling"], "info")] {
            let colour = try #require(said as? [String: Any], "\(what) says nothing of the colours")
            #expect(colour["signal"] as? String == fixture.signal, "\(what): \(colour)")
            #expect(colour["peak_nits"] as? Double == fixture.peak && colour["peak_source"] as? String == fixture.peakSource,
                    "\(what): \(colour)")
            #expect(colour["curve"] as? String == (fixture.mode == "none" ? "none" : "bt.2390"), "\(what): \(colour)")
            #expect(colour["mode"] as? String == fixture.mode && colour["gamut_mapped"] as? Bool == true, "\(what): \(colour)")
        }
        let loose = try Self.psnr(png, try PlaceboOracle.reference(of: path, frame: Self.frame))
        let tight = try Self.psnr(png, try PlaceboOracle.reference(of: path, frame: Self.frame, variant: .tight))
        print("\(fixture.spec.name): \(loose) dB against libplacebo's defaults, \(tight) dB without dither")
        #expect(loose >= Self.bar, "\(fixture.spec.name): \(loose) dB against libplacebo")
        #expect(tight >= Self.tightBar, "\(fixture.spec.name): \(tight) dB against libplacebo without dither")
    }

    /// HDR10 whose mastering display and light levels are in the container alone (Matroska's
    /// colour elements, as MP4's `mdcv`/`clli`), none in the bitstream: the bare PQ clip with
    /// the same numbers as `pqWithMetadata`'s SEI written by mkvpropedit.
    static func containerMetadata() throws -> String {
        try Fixtures.derived("hdr10-container-metadata", ext: "mkv", from: .pqBare) { source, destination in
            try FileManager.default.copyItem(atPath: source, toPath: destination)
            try Command.run(["mkvpropedit", "--quiet", destination, "--edit", "track:v1",
                             "--set", "max-luminance=1000", "--set", "min-luminance=0.0001",
                             "--set", "max-content-light=1000", "--set", "max-frame-light=400",
                             "--set", "chromaticity-coordinates-red-x=0.68", "--set", "chromaticity-coordinates-red-y=0.32",
                             "--set", "chromaticity-coordinates-green-x=0.265", "--set", "chromaticity-coordinates-green-y=0.69",
                             "--set", "chromaticity-coordinates-blue-x=0.15", "--set", "chromaticity-coordinates-blue-y=0.06",
                             "--set", "white-coordinates-x=0.3127", "--set", "white-coordinates-y=0.329"])
        }
    }

    @Test("HDR10 with its metadata only in the container is tone-mapped from that metadata in every picture")
    func containerOnlyMetadata() throws {
        let path = try Self.containerMetadata()
        let (png, json) = try Self.reelPicture(path, name: "container-metadata")
        defer { unlink(png) }
        let colour = try #require(json["colour"] as? [String: Any], "the frame says nothing of the colours")
        #expect(colour["peak_nits"] as? Double == 1000 && colour["peak_source"] as? String == "mastering"
                && colour["mode"] as? String == "luma", "\(colour)")
        // The same picture as the clip whose bitstream carries these numbers, as libplacebo draws
        // that one; the bare clip's (10,000 cd/m² assumed) is far from it.
        let reference = try PlaceboOracle.reference(of: try Fixtures.path(.pqWithMetadata), frame: Self.frame, variant: .tight)
        let psnr = try Self.psnr(png, reference)
        let (bare, _) = try Self.reelPicture(try Fixtures.path(.pqBare), name: "bare-for-container")
        defer { unlink(bare) }
        let assumed = try Self.psnr(bare, reference)
        print("container metadata: \(psnr) dB against libplacebo with the metadata; the bare clip \(assumed) dB")
        #expect(psnr >= Self.tightBar && psnr > assumed + 5, "\(psnr) dB; the bare clip \(assumed) dB")
    }

    /// The G value at the middle of each of the ramp's sixteen 80-pixel steps, on row 360.
    static func steps(_ png: String) throws -> [Int] {
        let pixels = try rgb(png)
        #expect(pixels.count == 1280 * 720 * 3)
        guard pixels.count == 1280 * 720 * 3 else { return [] }
        return (0..<16).map { Int(pixels[(360 * 1280 + $0 * 80 + 40) * 3 + 1]) }
    }

    @Test("The PQ grey ramp (0 to 1000 cd/m²) rises step by step as libplacebo's, unclipped below its top")
    func greyRamp() throws {
        // The ramp lasts five frames: frame 2 (0.08 s).
        let path = try Fixtures.path(.pqRamp)
        let (png, _) = try Self.reelPicture(path, name: "pq-ramp", frame: 2, time: "0.08")
        defer { unlink(png) }
        let reel = try Self.steps(png)
        let placebo = try Self.steps(try PlaceboOracle.reference(of: path, frame: 2, variant: .tight))
        print("PQ ramp, Reel: \(reel); libplacebo: \(placebo)")
        #expect(zip(reel, reel.dropFirst()).allSatisfy { $0 < $1 }, "not rising: \(reel)")
        #expect(reel.dropLast().allSatisfy { $0 < 255 }, "clipped below the top step: \(reel)")
        #expect(zip(reel, placebo).allSatisfy { abs($0 - $1) <= 2 }, "Reel \(reel), libplacebo \(placebo)")
    }

    /// SDR BT.709, tagged as such: the pictures no colour plan touches.
    static let sdr709 = Fixtures.Spec(name: "sdr-bt709-tagged", ext: "mkv", arguments: [
        "-f", "lavfi", "-i", "testsrc2=s=1280x720:r=25:d=1",
        "-vf", "scale=out_color_matrix=bt709:out_range=tv,format=yuv420p",
        "-c:v", "libx264", "-preset", "ultrafast", "-crf", "12",
        "-color_primaries", "bt709", "-color_trc", "bt709", "-colorspace", "bt709", "-color_range", "tv",
    ])

    @Test("SDR BT.709 is exactly libswscale's conversion still, as before tone mapping")
    func sdrUnchanged() throws {
        let path = try Fixtures.path(Self.sdr709)
        let (png, json) = try Self.reelPicture(path, name: "sdr709")
        defer { unlink(png) }
        #expect(json["colour"] == nil, "plain SDR BT.709 has nothing to say: \(String(describing: json["colour"]))")
        // FFmpeg's libswscale with the export's settings: bicubic, accurate rounding, full
        // chroma interpolation, H.264's left-sited chroma, the BT.709 matrix, limited range in.
        let scale = "scale=flags=bicubic+accurate_rnd+full_chroma_int:in_h_chr_pos=0:in_v_chr_pos=128"
            + ":in_color_matrix=bt709:in_range=tv:out_range=pc"
        let ffmpeg = try Command.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin", "-i", path,
                                      "-vf", "select=eq(n\\,\(Self.frame)),\(scale),format=rgb24", "-fps_mode", "passthrough",
                                      "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", "-"]).stdout
        let reel = try Self.rgb(png)
        #expect(reel.count == ffmpeg.count && reel.count == 1280 * 720 * 3)
        let differing = zip(reel, ffmpeg).filter { $0 != $1 }.count
        #expect(differing == 0, "\(differing) of \(reel.count) bytes differ from libswscale's conversion")
    }
}
