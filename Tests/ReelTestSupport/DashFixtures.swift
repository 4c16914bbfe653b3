import Foundation

/// DASH presentations made at test time by ffmpeg's dash muxer from lavfi sources: six seconds
/// of 320×240 video at 25 frames a second (a key frame each second, one-second segments) and
/// two audio adaptation sets, English a 440 Hz tone and French an 880 Hz one, so the sound
/// heard says which language plays. Each layout is made once per machine into the fixtures
/// folder and copied into a folder of the test nginx's root when published.
/// Threading: any test thread; making a layout is serialised.
public enum DashFixtures {
    public enum Layout: String, Sendable, CaseIterable {
        /// SegmentTemplate with a SegmentTimeline (`$Number$` segments, each one listed).
        case timeline
        /// SegmentTemplate with a fixed segment duration, no timeline.
        case template
        /// One file per representation, a SegmentList of byte ranges into it.
        case singleFile
    }

    public static let seconds = 6
    public static let frameRate = 25
    public static let tones: [String: Double] = ["eng": 440, "fra": 880]

    private static let lock = NSLock()

    /// The folder holding `layout`'s manifest (`manifest.mpd`) and segments, made if needed.
    public static func folder(_ layout: Layout) throws -> URL {
        let muxing: [String] = switch layout {
        case .timeline: ["-use_template", "1", "-use_timeline", "1"]
        case .template: ["-use_template", "1", "-use_timeline", "0"]
        case .singleFile: ["-single_file", "1", "-use_template", "0", "-use_timeline", "0"]
        }
        let arguments = [
            "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=\(frameRate):duration=\(seconds)",
            "-f", "lavfi", "-i", "sine=frequency=\(Int(tones["eng"]!)):sample_rate=48000:duration=\(seconds)",
            "-f", "lavfi", "-i", "sine=frequency=\(Int(tones["fra"]!)):sample_rate=48000:duration=\(seconds)",
            "-map", "0:v", "-map", "1:a", "-map", "2:a",
            "-c:v", "libx264", "-preset", "veryfast", "-g", "\(frameRate)", "-pix_fmt", "yuv420p",
            "-c:a", "aac", "-metadata:s:a:0", "language=eng", "-metadata:s:a:1", "language=fra",
            "-f", "dash", "-seg_duration", "1", "-adaptation_sets", "id=0,streams=v id=1,streams=1 id=2,streams=2",
        ] + muxing
        // The folder's name holds a hash of the recipe (FNV-1a: the same on every run).
        let stable = arguments.joined(separator: " ").utf8.reduce(UInt64(1469598103934665603)) { ($0 ^ UInt64($1)) &* 1099511628211 }
        let dir = Fixtures.directory.appendingPathComponent("dash-\(layout.rawValue)-\(String(stable, radix: 16))")
        lock.lock(); defer { lock.unlock() }
        if FileManager.default.fileExists(atPath: dir.appendingPathComponent("manifest.mpd").path) { return dir }
        let partial = URL(fileURLWithPath: dir.path + ".partial")
        try? FileManager.default.removeItem(at: partial)
        try FileManager.default.createDirectory(at: partial, withIntermediateDirectories: true)
        try Command.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-nostdin"] + arguments
                        + [partial.appendingPathComponent("manifest.mpd").path])
        try? FileManager.default.removeItem(at: dir)
        try FileManager.default.moveItem(at: partial, to: dir)
        return dir
    }

    /// Publishes `layout` as the folder `name` of the server's root; returns the folder's path
    /// in the root (the manifest is `name/manifest.mpd`).
    @discardableResult
    public static func publish(_ layout: Layout, on server: WebServer, as name: String) throws -> URL {
        let target = server.root.appendingPathComponent(name)
        if !FileManager.default.fileExists(atPath: target.path) {
            try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: try folder(layout), to: target)
        }
        return target
    }
}
