import ArgumentParser
import Foundation
import ReelCommandLine
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

    @Option(help: "Burn in the subtitles of this file (SRT, ASS, WebVTT, ...) shown at that moment.")
    var subtitles: String?

    @Option(help: "Burn in the media's own subtitle track with this stream index.")
    var subtitleTrack: Int?

    @Option(help: "The subtitle file's text encoding (an iconv name such as WINDOWS-1251); detected when absent.")
    var subtitleCharset: String?

    @Option(help: "Subtitle size: tiny, medium, large, huge.")
    var subtitleSize: SubtitleStyle.Size = .medium

    @Option(help: "Adjust the PNG as the video equalizer does, in mpv's units from -100 to 100: contrast=N,brightness=N,gamma=N,saturation=N,hue=N (any of them).")
    var equalizer: Equalizer = .neutral

    @Option(help: "auto: deinterlace frames flagged interlaced (bwdif, one picture per field); on: every frame; off: none.")
    var deinterlace: DeinterlaceMode = .auto

    func run() throws {
        let log = PlayerEventRecorder()
        var configuration = PlayerConfiguration()
        configuration.audioOutput = .null
        configuration.playsAudio = false
        configuration.deinterlace = deinterlace
        let player = Player(configuration: configuration, events: log.sink)
        player.open(try MediaSource(parsing: source))
        player.seek(to: at, mode: mode)
        guard try log.waitUntilLoaded(timeout: 60) else {
            throw ToolFailure(code: "timeout", message: "the media did not load within 60 s")
        }
        guard let frame = player.currentFrame else {
            throw PlayerError.noPlayableStream("\(source) has no video")  // only reached for cover-art-only media
        }
        let burnsSubtitles = subtitles != nil || subtitleTrack != nil
        if burnsSubtitles { try SubtitleBurnIn.prepare(player, log: log, file: subtitles, track: subtitleTrack,
                                                       charset: subtitleCharset, size: subtitleSize) }
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
        if let handling = ColourHandling(colour: frame.colour, dolbyVision: player.mediaInfo?.videoStream?.dolbyVision) {
            result["colour"] = ColourJSON.object(handling)
        }
        if let status = player.deinterlacing { result["deinterlacing"] = DeinterlaceJSON.object(status) }
        if md5 { result["md5"] = frame.md5() }
        if burnsSubtitles, let track = player.selectedSubtitleTrack {
            result["subtitle_track"] = ["id": track.id, "codec": track.codec, "language": track.language as Any,
                                        "charset": track.charset as Any] as [String: Any]
        }
        if let png {
            let rotation = player.mediaInfo?.videoStream?.rotation ?? 0
            let data = burnsSubtitles
                ? try frame.pngData(rotation: rotation, transform: .identity, equalizer: equalizer) {
                    player.subtitleImage(at: frame.pts, width: $0, height: $1)
                }
                : try frame.pngData(rotation: rotation, transform: .identity, equalizer: equalizer)
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
extension DeinterlaceMode: ExpressibleByArgument {}
extension Equalizer: ExpressibleByArgument {
    public init?(argument: String) { self.init(parsing: argument) }
}
extension SubtitleStyle.Size: ExpressibleByArgument {}
extension PlayerConfiguration.AudioOutputChoice: ExpressibleByArgument {}
