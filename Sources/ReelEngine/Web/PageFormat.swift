import CFFmpeg

/// One way a web page offers its video, as yt-dlp lists it under `formats`.
/// Threading: a value type.
public struct PageFormat: Sendable, Equatable {
    public var id: String
    public var url: String
    /// yt-dlp's protocol: `https`, `http`, `m3u8_native`, `m3u8`, `http_dash_segments`…
    public var protocolName: String
    public var width: Int?
    public var height: Int?
    /// RFC 6381 codec names (`avc1.64001F`, `mp4a.40.2`, `vp9`, `opus`), "none" for a stream
    /// the format does not carry, nil when yt-dlp does not know (the generic extractor).
    public var videoCodec: String?
    public var audioCodec: String?
    /// Total bit rate in kbit/s.
    public var bitRate: Double?
    public var label: String?
    /// The DASH manifest a `http_dash_segments` format is one representation of: Reel plays
    /// the manifest (through its DASH support) rather than yt-dlp's list of fragments.
    public var manifestURL: String?
    /// What the page's server wants with each request for this format (yt-dlp's
    /// `http_headers` and `cookies`).
    public var headers: RequestHeaders

    public init(id: String, url: String, protocolName: String = "https", width: Int? = nil, height: Int? = nil,
                videoCodec: String? = nil, audioCodec: String? = nil, bitRate: Double? = nil, label: String? = nil,
                manifestURL: String? = nil, headers: RequestHeaders = RequestHeaders()) {
        self.id = id
        self.url = url
        self.protocolName = protocolName
        self.width = width
        self.height = height
        self.videoCodec = videoCodec
        self.audioCodec = audioCodec
        self.bitRate = bitRate
        self.label = label
        self.manifestURL = manifestURL
        self.headers = headers
    }

    /// A representation of a DASH manifest Reel plays whole.
    var isDash: Bool { protocolName == "http_dash_segments" && manifestURL != nil }

    /// The address Reel opens for this format.
    public var playedURL: String { isDash ? manifestURL ?? url : url }

    /// Over a protocol Reel opens: http(s) files, HLS, and DASH manifests.
    var isPlayable: Bool { FormatChoice.protocols.contains(protocolName) || isDash }

    /// Reel plays it: over a protocol it opens, each stream it carries in a codec that decodes
    /// (one yt-dlp does not name is left to FFmpeg to try).
    func plays(_ decodes: (String) -> Bool) -> Bool {
        isPlayable && [videoCodec, audioCodec].allSatisfy { $0.map { $0 == "none" || decodes($0) } ?? true }
    }

    /// Carries no picture (yt-dlp says "none").
    var lacksVideo: Bool { videoCodec == "none" }
    /// Carries no sound.
    var lacksAudio: Bool { audioCodec == "none" }
}

/// Which of a page's formats Reel plays: over a protocol Reel opens (http(s) files, HLS, DASH), in
/// codecs FFmpeg decodes here, as tall as the screen and no taller (yt-dlp lists formats worst
/// first, so the later of equals wins; when none is short enough, the shortest). One holding
/// picture and sound together when there is one that tall; else a picture-only format with the
/// richest sound-only one beside it (as most large sites serve them), played in sync as a
/// sound file of its own (`ExternalAudio`), unless both are representations of one DASH
/// manifest, which then plays alone with both.
/// Threading: pure functions.
public enum FormatChoice {
    static let protocols: Set<String> = ["http", "https", "m3u8", "m3u8_native"]

    /// The picture's format, and the sound's when it comes apart; nil when nothing plays.
    /// `asked`: a format id chosen by the person, played when it is one of `qualities`.
    public static func choose(_ formats: [PageFormat], maxHeight: Int, asked: String? = nil,
                              decodes: (String) -> Bool) -> (video: PageFormat, audio: PageFormat?)? {
        let sound = richestSound(formats, decodes: decodes)
        if let asked, let wanted = qualities(formats, decodes: decodes).first(where: { $0.id == asked }) {
            if !wanted.lacksAudio { return (wanted, nil) }
            if let sound { return paired(wanted, sound) }
        }
        let together = best(formats, maxHeight: maxHeight, decodes: decodes)
        if let sound, let picture = tallest(formats, maxHeight: maxHeight, where: { $0.plays(decodes) && !$0.lacksVideo && $0.lacksAudio }),
           together == nil || ((picture.height ?? 0) <= maxHeight && (picture.height ?? 0) > (together?.height ?? 0)) {
            return paired(picture, sound)
        }
        return together.map { ($0, nil) }
    }

    /// The sound is left to the picture's manifest when both come from the same one.
    private static func paired(_ video: PageFormat, _ audio: PageFormat?) -> (video: PageFormat, audio: PageFormat?) {
        guard let audio, video.isDash, audio.isDash, audio.manifestURL == video.manifestURL else { return (video, audio) }
        return (video, nil)
    }

    /// The pictures a person can choose among: every format Reel plays that shows one (sound-only
    /// ones left out; picture-only ones when there is a sound to play beside them), tallest first.
    public static func qualities(_ formats: [PageFormat], decodes: (String) -> Bool) -> [PageFormat] {
        let hasSound = richestSound(formats, decodes: decodes) != nil
        return formats.enumerated().filter { _, f in f.plays(decodes) && !f.lacksVideo && (hasSound || !f.lacksAudio) }
            .sorted { ($0.element.height ?? 0, $0.offset) > ($1.element.height ?? 0, $1.offset) }
            .map(\.element)
    }

    private static func richestSound(_ formats: [PageFormat], decodes: (String) -> Bool) -> PageFormat? {
        formats.enumerated().filter { _, f in f.plays(decodes) && f.lacksVideo && !f.lacksAudio }
            .max { ($0.element.bitRate ?? 0, $0.offset) < ($1.element.bitRate ?? 0, $1.offset) }?.element
    }

    /// The best of the formats holding picture and sound together.
    public static func best(_ formats: [PageFormat], maxHeight: Int, decodes: (String) -> Bool) -> PageFormat? {
        tallest(formats, maxHeight: maxHeight) { $0.plays(decodes) && !$0.lacksVideo && !$0.lacksAudio }
    }

    /// Among the formats `counts` keeps: the tallest that fits (of equals the richer, then the
    /// later), or the shortest when none fits.
    private static func tallest(_ formats: [PageFormat], maxHeight: Int, where counts: (PageFormat) -> Bool) -> PageFormat? {
        let candidates = formats.enumerated().filter { counts($0.element) }
        func better(_ a: (offset: Int, element: PageFormat), _ b: (offset: Int, element: PageFormat)) -> Bool {
            let (ha, hb) = (a.element.height ?? 0, b.element.height ?? 0)
            if ha != hb { return ha < hb }
            let (ra, rb) = (a.element.bitRate ?? 0, b.element.bitRate ?? 0)
            if ra != rb { return ra < rb }
            return a.offset < b.offset
        }
        if let fitting = candidates.filter({ ($0.element.height ?? 0) <= maxHeight }).max(by: better) { return fitting.element }
        return candidates.min(by: better)?.element
    }

    /// Whether FFmpeg here decodes `codec` (an RFC 6381 name); names Reel does not map are left
    /// to FFmpeg to try.
    public static func decodable(_ codec: String) -> Bool {
        guard let name = decoderName(codec) else { return true }
        return avcodec_find_decoder_by_name(name) != nil
    }

    /// FFmpeg's decoder name for an RFC 6381 codec string or a plain codec name; nil when the
    /// name is not one Reel knows to map.
    public static func decoderName(_ codec: String) -> String? {
        let name = codec.lowercased()
        let prefixes: [(String, String)] = [
            ("avc1", "h264"), ("avc3", "h264"), ("h264", "h264"), ("hev1", "hevc"), ("hvc1", "hevc"), ("hevc", "hevc"),
            ("h265", "hevc"), ("vp09", "vp9"), ("vp9", "vp9"), ("vp08", "vp8"), ("vp8", "vp8"), ("av01", "av1"),
            ("av1", "av1"), ("mp4a", "aac"), ("aac", "aac"), ("opus", "opus"), ("vorbis", "vorbis"), ("mp3", "mp3"),
            ("ac-3", "ac3"), ("ac3", "ac3"), ("ec-3", "eac3"), ("eac3", "eac3"), ("flac", "flac"), ("theora", "theora"),
        ]
        return prefixes.first { name.hasPrefix($0.0) }?.1
    }
}
