import Foundation
import ReelTestSupport
import Testing

/// `reel-tool frame --png --equalizer` (the CPU path's equalizer, as Save Picture and software
/// drawing use it) against FFmpeg's filters doing mpv's equalizer to the same frame
/// (`EqualizerForms`).
@Suite("Video equalizer against FFmpeg's filters")
struct EqualizerOracleTests {
    /// A control, its value in mpv's units, and FFmpeg's way to the same picture: filters on
    /// the decoded Y′CbCr frame, or on the RGB picture after the conversion.
    /// Threading: a value type.
    struct Case: Sendable, CustomTestStringConvertible {
        let setting: String
        var before: String?
        var after: String?
        var testDescription: String { setting }
    }

    static let cases = [
        Case(setting: "contrast=20", before: EqualizerForms.contrast(1.2)),
        Case(setting: "contrast=-30", before: EqualizerForms.contrast(0.7)),
        Case(setting: "brightness=10", after: EqualizerForms.brightness(10)),
        Case(setting: "brightness=-10", after: EqualizerForms.brightness(-10)),
        Case(setting: "saturation=30", before: "eq=saturation=1.3"),
        Case(setting: "saturation=-100", before: "eq=saturation=0"),
        Case(setting: "hue=20", before: EqualizerForms.hue(20)),
        Case(setting: "hue=-50", before: EqualizerForms.hue(-50)),
        Case(setting: "gamma=30", after: EqualizerForms.gamma(30)),
        Case(setting: "contrast=10,saturation=-20,hue=10",
             before: EqualizerForms.contrast(1.1) + ",eq=saturation=0.8," + EqualizerForms.hue(10)),
    ]

    /// The frame compared: index 5 (0.2 s at 25 fps).
    static let frame = 5

    /// The letterboxed fixture is untagged SD: BT.601, limited range, H.264's left-sited chroma;
    /// zimg interpolates chroma bilinearly.
    static func oracle(_ clip: String, before: String?, after: String?, to png: String) throws {
        let scale = "scale=in_color_matrix=bt601:in_range=tv:out_range=pc:flags=bilinear+accurate_rnd+full_chroma_int"
            + ":in_h_chr_pos=0:in_v_chr_pos=128"
        try Command.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin", "-y", "-i", clip, "-vf",
                         (before.map { $0 + "," } ?? "") + "select=eq(n\\,\(frame)),\(scale),format=gbrp,"
                            + (after.map { $0 + "," } ?? "") + "scale,format=rgb24",
                         "-fps_mode", "passthrough", "-frames:v", "1", png])
    }

    static func reel(_ clip: String, equalizer: String?, name: String) throws -> String {
        let png = Fixtures.directory.appendingPathComponent("reel-eq-\(name)-\(getpid()).png").path
        let result = try ReelToolTests.tool(["frame", clip, "--at", "0.2", "--png", png] + (equalizer.map { ["--equalizer", $0] } ?? []))
        #expect(result.status == 0, "\(result.errors)")
        return png
    }

    @Test("Each control draws FFmpeg's picture of it", arguments: cases)
    func control(_ c: Case) throws {
        let clip = try Fixtures.path(.letterboxed)
        let drawn = try Self.reel(clip, equalizer: c.setting, name: c.setting)
        let oracle = Fixtures.directory.appendingPathComponent("ffmpeg-eq-\(c.setting)-\(getpid()).png").path
        defer { for file in [drawn, oracle] { try? FileManager.default.removeItem(atPath: file) } }
        try Self.oracle(clip, before: c.before, after: c.after, to: oracle)
        let psnr = try ToneMappingOracleTests.psnr(drawn, oracle)
        print("PSNR equalizer \(c.setting): \(String(format: "%.2f", psnr)) dB")
        #expect(psnr >= 35, "\(c.setting): \(psnr) dB against FFmpeg")
        // And the control did something: the picture is clearly nearer FFmpeg's adjusted one
        // than the untouched one.
        let plain = Fixtures.directory.appendingPathComponent("ffmpeg-eq-plain-\(c.setting)-\(getpid()).png").path
        defer { try? FileManager.default.removeItem(atPath: plain) }
        try Self.oracle(clip, before: nil, after: nil, to: plain)
        let untouched = try ToneMappingOracleTests.psnr(drawn, plain)
        #expect(psnr > untouched + 5, "\(c.setting): \(psnr) dB against FFmpeg's, \(untouched) dB against the untouched picture")
    }

    /// On HDR pictures mpv's equalizer (but its gamma) acts on the source signal, before the
    /// tone mapping, as libplacebo's colour adjustment does (mpv's units, in radians for the
    /// hue); libplacebo's gamma is not mpv's, so the gamma is FFmpeg's `lutrgb` on its output.
    static let hdrCases = [
        Case(setting: "contrast=20,saturation=-30", before: "contrast=1.2:saturation=0.7"),
        Case(setting: "brightness=5,hue=20", before: "brightness=0.05:hue=\(0.2 * Double.pi)"),
        Case(setting: "gamma=30", after: EqualizerForms.gamma(30)),
    ]

    @Test("On HDR10 it adjusts the source signal before the tone mapping, as libplacebo does", arguments: hdrCases)
    func hdr(_ c: Case) throws {
        let clip = try Fixtures.path(.pqWithMetadata)
        let drawn = try Self.reel(clip, equalizer: c.setting, name: "hdr-" + c.setting)
        var reference = try PlaceboOracle.reference(of: clip, frame: Self.frame, variant: .tight, adjustment: c.before)
        let untouched = try PlaceboOracle.reference(of: clip, frame: Self.frame, variant: .tight)
        let graded = Fixtures.directory.appendingPathComponent("placebo-eq-\(c.setting)-\(getpid()).png").path
        defer { for file in [drawn, graded] { try? FileManager.default.removeItem(atPath: file) } }
        if let after = c.after {
            try Command.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin", "-y", "-i", reference,
                             "-vf", "format=rgb24,\(after)", graded])
            reference = graded
        }
        let psnr = try ToneMappingOracleTests.psnr(drawn, reference)
        let plain = try ToneMappingOracleTests.psnr(drawn, untouched)
        print("PSNR equalizer on HDR10 \(c.setting): \(String(format: "%.2f", psnr)) dB (\(String(format: "%.2f", plain)) dB untouched)")
        #expect(psnr >= 35 && psnr > plain + 5, "\(c.setting): \(psnr) dB against libplacebo's, \(plain) dB against its untouched picture")
    }

    @Test("A neutral equalizer leaves the export exactly as it was")
    func neutral() throws {
        let clip = try Fixtures.path(.letterboxed)
        let plain = try Self.reel(clip, equalizer: nil, name: "none")
        let zero = try Self.reel(clip, equalizer: "contrast=0,brightness=0,gamma=0,saturation=0,hue=0", name: "zero")
        defer { for file in [plain, zero] { try? FileManager.default.removeItem(atPath: file) } }
        #expect(FileManager.default.contents(atPath: plain) == FileManager.default.contents(atPath: zero))
    }

    @Test("A setting outside −100…100 or not a control is refused")
    func refused() throws {
        let clip = try Fixtures.path(.letterboxed)
        for bad in ["contrast=101", "sharpness=5", "contrast", "hue=ten"] {
            let result = try ReelToolTests.tool(["frame", clip, "--at", "0.2", "--equalizer", bad])
            #expect(result.status != 0, "--equalizer \(bad) was taken")
        }
    }
}
