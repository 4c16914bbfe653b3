import Foundation
import ReelTestSupport
import Testing

/// Each warning the engine can raise reaches the person in the real window: a notice in their
/// language saying what cannot be played and what plays on, while the rest plays. The media
/// and the broken sound setups are real (files FFmpeg here cannot fully use, a sound server
/// that is not there, a sink that does not exist); the notice is read from the accessibility
/// tree.
/// Threading: serialised; a test owns the standard shared desktop for its turn.
@Suite("Warnings shown in the window", .serialized)
struct WarningToastTests {
    /// One way to make the player warn, and the start of what the notice must say.
    struct Case: CustomStringConvertible, Sendable {
        let name: String
        let media: @Sendable () throws -> String
        var environment: [String: String] = [:]
        /// Settings written before the app starts (`key=value` in GSettings' keyfile form).
        var settings: [String] = []
        /// Done in the running app before the notice is looked for (over D-Bus: such a run is
        /// not a measured one, which has no name on the bus, so `--report` is left out).
        var then: (@Sendable (ReelApp) throws -> Void)?
        let notice: String
        /// The warning's code in `--report`'s line.
        let code: String
        var description: String { name }
    }

    static let cases: [Case] = [
        Case(name: "a video codec nothing here decodes", media: { try Fixtures.unknownVideoCodec() },
             notice: "The picture cannot be shown: Reel cannot decode ", code: "video_codec_unsupported"),
        Case(name: "a video decoder that refuses to open", media: { try Fixtures.refusedVideoDecoder() },
             notice: "The picture cannot be shown (theora: ", code: "video_decoder_failed"),
        Case(name: "the preferred sound stream's decoder refuses to open", media: { try Fixtures.refusedAudioStream() },
             settings: ["audio-languages='fr'"], notice: "The sound cannot be played (opus: ", code: "audio_decoder_failed"),
        Case(name: "a sound track chosen whose decoder refuses to open", media: { try Fixtures.refusedAudioStream() },
             then: { app in
                 // Loaded (the window is named after it), then the French stream chosen.
                 try Desktop.wait("the media loaded", log: app.log) { app.title.hasSuffix("– Reel") }
                 try app.activate("audio-track", string: "2")
             }, notice: "That sound track cannot be played (opus: ", code: "audio_stream_refused"),
        Case(name: "no sound server", media: { try Fixtures.path(.h264MP4) },
             environment: ["PULSE_SERVER": "unix:/nonexistent/reel-no-sound"],
             notice: "No sound: no sound server answers (", code: "no_sound_server"),
        Case(name: "a sound server without the sink asked for", media: { try Fixtures.path(.h264MP4) },
             environment: ["PULSE_SINK": "reel_no_such_sink"],
             notice: "No sound: the sound output could not be opened (", code: "sound_output_failed"),
        Case(name: "a sound file added that cannot be read", media: { try Fixtures.path(.h264MP4) },
             then: { app in
                 try Desktop.wait("the media loaded", log: app.log) { app.title.hasSuffix("– Reel") }
                 try app.activate("add-audio-file", string: "/nonexistent/commentary.ogg")
             }, notice: "The sound file commentary.ogg cannot be played (", code: "audio_file_failed"),
    ]

    @Test("Each warning of the engine shows as a notice in words a person reads, and the rest plays", arguments: cases)
    func noticeShown(_ warning: Case) throws {
        let clip = try warning.media()
        try SharedDesktop.standard.use { desktop in
            if !warning.settings.isEmpty {
                let folder = desktop.home.appendingPathComponent("config/glib-2.0/settings")
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                try (["[io/github/reel/Reel]"] + warning.settings).joined(separator: "\n")
                    .write(to: folder.appendingPathComponent("keyfile"), atomically: true, encoding: .utf8)
            }
            let report = warning.then == nil
            let app = try ReelApp(on: desktop, arguments: (report ? ["--report"] : []) + [clip], environment: warning.environment)
            defer { app.stop() }
            try warning.then?(app)
            let tree = try app.waitForTree("the notice for \(warning.name)") { tree in
                tree.contains { $0.role == "label" && $0.name.hasPrefix(warning.notice) }
            }
            let shown = tree.first { $0.role == "label" && $0.name.hasPrefix(warning.notice) }!
            #expect(shown.width > 0 && shown.height > 0, "the notice is not on screen: \(shown)")
            // The rest plays: no error page in place of the media.
            #expect(!tree.contains { $0.name.hasPrefix("Cannot Play") }, "the media failed instead")
            // --report says it too, by its code, for scripts.
            guard report else { return }
            try Desktop.wait("the warning in --report's output", log: app.log) {
                let output = (try? String(contentsOfFile: app.log, encoding: .utf8)) ?? ""
                return output.contains(#""code":"\#(warning.code)""#) && output.contains(#""event":"warning""#)
            }
        }
    }
}
