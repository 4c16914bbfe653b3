import Foundation
import ReelTestSupport
import Testing

/// What the window says of a video's colours: the info card (read from the accessibility tree)
/// names HDR10 with its mastering peak and the tone curve, and `reel --report` prints a
/// "colour" line for HDR10, HLG and BT.2020 SDR, and none for plain SDR.
/// Threading: serialised; a turn owns the shared desktop while it runs.
@Suite("Colours in the window", .serialized)
struct ColourInfoWindowTests {
    @Test("The info card names HDR10, its mastering peak, the tone curve and the gamut mapping")
    func infoCard() throws {
        try ControlsTests.desktops.use { desktop in
            let s = try ControlsTests.Session(on: desktop, arguments: ["--paused"], clip: .pqWithMetadata)
            try s.desktop.click(s.movie.x + 5, s.movie.y + s.movie.height / 2)   // focus the window
            try s.desktop.key("i")
            try s.app.waitForElement("the info card naming HDR10 and its peak") {
                $0.name.contains("Colour: HDR10 (PQ, BT.2020), mastering peak 1000 cd/m²")
            }
            try s.app.waitForElement("the info card naming the tone curve") {
                $0.name.contains("Tone mapping: BT.2390 to SDR, luma") && $0.name.contains("Gamut: BT.2020 clipped to BT.709")
            }
        }
    }

    @Test("With LANGUAGE=de the info card says it in German, as po/de.po words it")
    func infoCardInGerman() throws {
        typealias German = GermanWindowTests
        // "HLG (BT.2020)" is the same in German.
        let colour = String(format: try German.german("Colour: %@"),
                            "HLG (BT.2020)" + String(format: try German.german(", peak %@ cd/m² assumed"), "1000"))
        let tone = try German.german("Tone mapping: BT.2390 to SDR, luma")
        try German.inGerman { german in try ControlsTests.desktops.use { desktop in
            let app = try ReelApp(on: desktop, arguments: ["--paused", try Fixtures.path(.hlg)], environment: german)
            let play = try German.german("Play")
            // "Video" is "Video" in German too.
            let tree = try app.waitForTree("the picture and the play button") { tree in
                tree.contains { $0.name == "Video" } && tree.contains { $0.name == play }
            }
            let movie = tree.first { $0.name == "Video" }!
            try desktop.click(movie.x + 5, movie.y + movie.height / 2)   // focus the window
            try desktop.key("i")
            try app.waitForElement("the info card saying “\(colour)” and “\(tone)”") {
                $0.name.contains(colour) && $0.name.contains(tone)
            }
        } }
    }

    /// Runs `reel --report --exit-after 0` on `spec` and returns its "colour" lines.
    static func reportedColour(_ spec: Fixtures.Spec, on desktop: Desktop) throws -> [[String: Any]] {
        let output = try Command.run([ReelApp.binary, "--report", "--exit-after", "0", try Fixtures.path(spec)],
                                     environment: desktop.environment).output
        #expect(!DrawingPathTests.reported(output, "first_frame_drawn").isEmpty, "\(spec.name): no picture drawn: \(output)")
        return DrawingPathTests.reported(output, "colour")
    }

    @Test("reel --report says what was detected and which curve is used")
    func report() throws {
        try ControlsTests.desktops.use { desktop in
            let hdr10 = try Self.reportedColour(.pqWithMetadata, on: desktop)
            #expect(hdr10.count == 1, "\(hdr10)")
            #expect(hdr10.first?["signal"] as? String == "hdr10")
            #expect(hdr10.first?["peak_nits"] as? Double == 1000 && hdr10.first?["peak_source"] as? String == "mastering")
            #expect(hdr10.first?["curve"] as? String == "bt.2390" && hdr10.first?["mode"] as? String == "luma")
            #expect(hdr10.first?["description"] as? String
                    == "HDR10 (PQ, BT.2020), mastering peak 1000 cd/m²; tone mapping: BT.2390 to SDR, luma; gamut: BT.2020 clipped to BT.709")

            let hlg = try Self.reportedColour(.hlg, on: desktop)
            #expect(hlg.first?["signal"] as? String == "hlg" && hlg.first?["peak_source"] as? String == "assumed")
            #expect((hlg.first?["description"] as? String)?.hasPrefix("HLG (BT.2020), peak 1000 cd/m² assumed") == true, "\(hlg)")

            let wide = try Self.reportedColour(.bt2020SDR, on: desktop)
            #expect(wide.first?["signal"] as? String == "wide_gamut_sdr" && wide.first?["curve"] as? String == "none")
            #expect(wide.first?["description"] as? String == "BT.2020 SDR; gamut: BT.2020 clipped to BT.709")

            #expect(try Self.reportedColour(.h264MP4, on: desktop).isEmpty, "plain SDR BT.709 has nothing to say")
        }
    }
}
