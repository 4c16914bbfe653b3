import ArgumentParser
import Foundation
import ReelEngine

/// `reel-tool frame`: the picture an exact (or key-frame) seek lands on, as JSON, MD5 or PNG.
/// Threading: runs on the main thread; waits on the player's events.
struct FrameCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "frame",
        abstract: "Decode the frame a seek lands on and describe it as one JSON line.")

    @Argument(help: "A file path, file:// URI or http(s):// URL.")
    var source: String

    @Option(help: "Seek target in seconds.")
    var at: Double

    @Option(help: "exact: the frame shown at that time; keyframe: the key frame at or before it.")
    var mode: SeekMode = .exact

    @Flag(help: "Print the MD5 of the frame's packed planes (as ffmpeg's framemd5 does).")
    var md5 = false

    @Option(help: "Write the frame as an RGB PNG, square pixels, turned as the stream's display rotation says.")
    var png: String?

    func run() throws {
        let log = PlayerEventRecorder()
        var configuration = PlayerConfiguration()
        configuration.audioOutput = .null
        configuration.playsAudio = false
        let player = Player(configuration: configuration, events: log.sink)
        player.open(try MediaSource(parsing: source))
        player.seek(to: at, mode: mode)
        guard try log.waitUntilLoaded(timeout: 60) else {
            throw ToolFailure(code: "timeout", message: "the media did not load within 60 s")
        }
        guard let frame = player.currentFrame else {
            throw PlayerError.noPlayableStream("\(source) has no video")  // only reached for cover-art-only media
        }
        var result: [String: Any] = [
            "pts": Output.round(frame.pts, 6),
            "index": frame.index as Any,
            "key_frame": frame.isKeyFrame,
            "width": frame.width,
            "height": frame.height,
            "pixel_format": frame.format.description,
            "color_matrix": frame.colorMatrix.rawValue,
            "color_range": frame.colorRange.rawValue,
        ]
        if let rotation = player.mediaInfo?.videoStream?.rotation, rotation != 0 { result["rotation"] = rotation }
        if md5 { result["md5"] = frame.md5() }
        if let png {
            let data = try frame.pngData(rotation: player.mediaInfo?.videoStream?.rotation ?? 0)
            do { try data.write(to: URL(fileURLWithPath: png)) } catch {
                throw ToolFailure(code: "write_failed", message: "cannot write \(png): \(error.localizedDescription)")
            }
            result["png"] = png
        }
        player.close()
        Output.line(result)
    }
}

extension SeekMode: ExpressibleByArgument {}
extension PlayerConfiguration.AudioOutputChoice: ExpressibleByArgument {}
