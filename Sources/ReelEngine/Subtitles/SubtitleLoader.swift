import CFFmpeg
import Foundation

/// Opens subtitle sources: an external file (its text encoding found and converted to UTF-8
/// first) or the subtitle streams of the playing media (opened a second time, so the playing
/// demuxer is not disturbed), and finds the files that belong to a video.
/// Threading: blocking; called on a subtitle loading thread.
enum SubtitleLoader {
    /// Larger "subtitle" files are refused: no real one comes near it.
    static let largestFile = 64 << 20
    static let extensions: Set<String> = ["srt", "ass", "ssa", "vtt", "webvtt", "sub", "sup", "smi", "sami",
                                          "mpl", "txt", "lrc", "ttml", "dfxp", "stl", "jss", "rt", "pjs", "idx"]

    /// Decodes the first subtitle stream of `path`. `charset` overrides detection for text.
    static func loadFile(_ path: String, id: Int, language: String? = nil,
                         charset: String? = nil) throws(PlayerError) -> DecodedSubtitles {
        let name = (path as NSString).lastPathComponent
        let data: Data
        do {
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            // A device or pipe (/dev/zero, a FIFO) would be read forever; a folder not at all.
            guard attributes[.type] as? FileAttributeType == .typeRegular else {
                throw PlayerError.notMediaFile("\(name) is not a regular file")
            }
            if let size = attributes[.size] as? Int, size > largestFile {
                throw PlayerError.notMediaFile("\(name) is too large for a subtitle file")
            }
            // Refused before reading: on Linux, Foundation reads a file whose size is 0 into a
            // 4 KiB buffer it then never frees (LeakSanitizer, scripts/sanitize.sh).
            if attributes[.size] as? Int == 0 { throw PlayerError.notMediaFile("\(name) is empty") }
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch let error as PlayerError {
            throw error
        } catch {
            if !FileManager.default.fileExists(atPath: path) { throw .fileNotFound(path) }
            throw .permissionDenied(path)
        }
        guard !data.isEmpty else { throw .notMediaFile("\(name) is empty") }

        var openPath = path
        var usedCharset: String? = nil
        var temporary: String? = nil
        defer { if let temporary { try? FileManager.default.removeItem(atPath: temporary) } }
        if SubtitleCharset.looksLikeText(data) {
            let chosen = charset ?? SubtitleCharset.detect(data)
            guard let utf8 = SubtitleCharset.convertToUTF8(data, from: chosen) else {
                throw .corruptData("\(name) cannot be read as \(chosen) text (an encoding iconv does not know)")
            }
            usedCharset = chosen
            // A line no subtitle has (megabytes of it) is cut before FFmpeg and libass see it.
            let text = SubtitleLines.cuttingLongLines(utf8) ?? utf8
            if text != data {
                // FFmpeg's text demuxers read UTF-8; the converted copy keeps the name's extension.
                let ext = (path as NSString).pathExtension
                let copy = NSTemporaryDirectory() + "reel-subtitle-\(UUID().uuidString).\(ext.isEmpty ? "txt" : ext)"
                guard FileManager.default.createFile(atPath: copy, contents: text) else {
                    throw .internalError("cannot write a converted copy of \(name)")
                }
                temporary = copy
                openPath = copy
            }
        }

        let input: MediaInput
        do throws(PlayerError) {
            input = try MediaInput(source: MediaSource(path: openPath), interrupt: InterruptFlag())
        } catch {
            if case .notMediaFile = error { throw .notMediaFile("\(name) is not a subtitle file") }
            if case .corruptData = error { throw .corruptData("\(name) could not be read as subtitles") }
            throw error
        }
        defer { input.close() }
        guard let index = (0..<input.streamCount).first(where: {
            input.stream($0).pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_SUBTITLE
        }) else {
            throw .notMediaFile("\(name) holds no subtitles")
        }
        var track = trackInfo(input.stream(index), id: id, origin: .external(path: path))
        track.language = language ?? track.language ?? languageInName(path)
        track.charset = usedCharset
        // A subtitle file's times are the video's times: nothing to subtract.
        guard let decoded = SubtitleDecoding.decode(input, streams: [.init(index: index, track: track)], origin: 0).first else {
            throw .unsupportedCodec("no decoder for the subtitles in \(name)")
        }
        return decoded
    }

    /// Decodes every subtitle stream of the media; ids are the stream indices. Local media only:
    /// the streams are read in a second pass over the file, which for remote media would fetch
    /// it all twice (remote media's own subtitles are left for the demuxer to carry one day).
    /// `interrupt` aborted (the media closing) ends the reading early.
    static func loadEmbedded(_ source: MediaSource, info: MediaInfo, interrupt: InterruptFlag) -> [DecodedSubtitles] {
        let indices = info.streams.filter { $0.kind == .subtitle }.map(\.index)
        guard !indices.isEmpty, !source.isRemote else { return [] }
        guard let input = try? MediaInput(source: source, interrupt: interrupt) else { return [] }
        defer { input.close() }
        let streams = indices.filter { $0 < input.streamCount }.map {
            SubtitleDecoding.Stream(index: $0, track: trackInfo(input.stream($0), id: $0, origin: .embedded(streamIndex: $0)))
        }
        return SubtitleDecoding.decode(input, streams: streams, origin: info.startTime) { interrupt.isAborted }
    }

    static func trackInfo(_ stream: UnsafeMutablePointer<AVStream>, id: Int, origin: SubtitleTrack.Origin) -> SubtitleTrack {
        let par = stream.pointee.codecpar.pointee
        let descriptor = avcodec_descriptor_get(par.codec_id)
        let codec = descriptor.map { String(cString: $0.pointee.name) } ?? "unknown"
        let isBitmap = descriptor.map { ($0.pointee.props & AV_CODEC_PROP_BITMAP_SUB) != 0 } ?? false
        return SubtitleTrack(
            id: id, origin: origin,
            language: AVDictionaryReader.value(stream.pointee.metadata, "language"),
            title: AVDictionaryReader.value(stream.pointee.metadata, "title"),
            codec: codec, isBitmap: isBitmap,
            isDefault: (stream.pointee.disposition & AV_DISPOSITION_DEFAULT) != 0, charset: nil)
    }

    /// Files beside the video that share its base name: `film.srt`, `film.en.srt`,
    /// `film.English.forced.ass`; sorted by name.
    static func siblings(of videoPath: String) -> [(path: String, language: String?)] {
        let directory = (videoPath as NSString).deletingLastPathComponent
        let base = ((videoPath as NSString).lastPathComponent as NSString).deletingPathExtension
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.isEmpty ? "." : directory) else { return [] }
        // Only names that share the base name are looked at and sorted: at every open, and a
        // folder of a few thousand files (a downloads folder) otherwise cost a sort of them all.
        let prefix = base + "."
        return names.filter { $0.hasPrefix(prefix) }.sorted().compactMap { name in
            let ext = (name as NSString).pathExtension.lowercased()
            guard extensions.contains(ext), ext != "idx",
                  name != (videoPath as NSString).lastPathComponent else { return nil }
            let path = (directory as NSString).appendingPathComponent(name)
            return (path, languageInName(path))
        }
    }

    /// The language part of `film.en.srt` or `film.eng.forced.srt`, if one is there.
    static func languageInName(_ path: String) -> String? {
        let parts = ((path as NSString).lastPathComponent as NSString).deletingPathExtension.split(separator: ".")
        return parts.dropFirst().reversed().map(String.init).first { LanguageNames.isCode($0) }
    }
}
