/// What probing found in a media source: container, duration, streams, metadata, chapters.
/// Threading: a value type.
public struct MediaInfo: Sendable, Equatable, Codable {
    /// The full path or URL.
    public var source: String
    /// The file name, or the URL for remote media.
    public var sourceName: String
    public var container: String
    public var containerDescription: String
    /// Seconds; nil when unknown (live streams, some broken files).
    public var duration: Double?
    /// Where the container's timeline starts, in its own timestamps. Every time the engine
    /// reports or accepts (positions, frame times, seek targets, chapters) counts from here,
    /// so media always runs from 0 to `duration`, as in mpv and FFmpeg's tools.
    public var startTime: Double
    public var bitRate: Int?
    public var title: String?
    public var metadata: [String: String]
    public var streams: [StreamInfo]
    public var chapters: [Chapter]
    /// The web page the media was found on (yt-dlp), when it was opened from one.
    public var webPage: String?
    /// The page's pictures Reel can play (other qualities), tallest first, and the one playing.
    public var webFormats: [WebFormatChoice] = []
    public var webFormat: String?
    /// A web page's list of videos (this one first), when it holds more than one: the queue
    /// takes the others after it.
    public var webPageEntries: [String] = []
    public var isSeekable: Bool
    /// Index into `streams` of the video and audio streams the player uses.
    public var selectedVideoStream: Int?
    public var selectedAudioStream: Int?

    public var videoStream: StreamInfo? { selectedVideoStream.flatMap(stream(at:)) }
    public var audioStream: StreamInfo? { selectedAudioStream.flatMap(stream(at:)) }

    /// The stream with this index in the container, if there is one.
    public func stream(at index: Int) -> StreamInfo? { streams.first { $0.index == index } }

    /// A title for windows: the tagged title, else the file name.
    public var displayTitle: String {
        if let title, !title.trimmingCharacters(in: .whitespaces).isEmpty { return title }
        return sourceName
    }
}

public struct StreamInfo: Sendable, Equatable, Codable {
    public enum Kind: String, Sendable, Codable { case video, audio, subtitle, data, attachment, unknown }

    public var index: Int
    public var kind: Kind
    public var codec: String
    public var codecDescription: String
    public var profile: String?
    public var bitRate: Int?
    public var language: String?
    public var title: String?
    public var isDefault: Bool
    public var isAttachedPicture: Bool
    // Video
    public var width: Int?
    public var height: Int?
    public var pixelFormat: String?
    public var sampleAspectRatio: Rational?
    /// Frames per second (the stream's average rate, else its base rate).
    public var frameRate: Double?
    public var frameRateRational: Rational?
    /// Display rotation in degrees (from the display matrix), 0 when none.
    public var rotation: Int
    /// Primaries and transfer from the codec parameters; HDR metadata from the container, or
    /// (`MediaInspector`) from the first picture when the container has none.
    public var colour: PictureColour?
    public var fieldOrder: FieldOrder?
    public var dolbyVision: DolbyVision?
    // Audio
    public var sampleRate: Int?
    public var channels: Int?
    public var channelLayout: String?
    public var sampleFormat: String?

    /// Every field; the optional ones default to nil, as the memberwise initializer had them.
    package init(index: Int, kind: Kind, codec: String, codecDescription: String,
                 profile: String? = nil, bitRate: Int? = nil, language: String? = nil,
                 title: String? = nil, isDefault: Bool, isAttachedPicture: Bool, width: Int? = nil,
                 height: Int? = nil, pixelFormat: String? = nil, sampleAspectRatio: Rational? = nil,
                 frameRate: Double? = nil, frameRateRational: Rational? = nil, rotation: Int,
                 colour: PictureColour? = nil, fieldOrder: FieldOrder? = nil,
                 dolbyVision: DolbyVision? = nil, sampleRate: Int? = nil, channels: Int? = nil,
                 channelLayout: String? = nil, sampleFormat: String? = nil) {
        self.index = index
        self.kind = kind
        self.codec = codec
        self.codecDescription = codecDescription
        self.profile = profile
        self.bitRate = bitRate
        self.language = language
        self.title = title
        self.isDefault = isDefault
        self.isAttachedPicture = isAttachedPicture
        self.width = width
        self.height = height
        self.pixelFormat = pixelFormat
        self.sampleAspectRatio = sampleAspectRatio
        self.frameRate = frameRate
        self.frameRateRational = frameRateRational
        self.rotation = rotation
        self.colour = colour
        self.fieldOrder = fieldOrder
        self.dolbyVision = dolbyVision
        self.sampleRate = sampleRate
        self.channels = channels
        self.channelLayout = channelLayout
        self.sampleFormat = sampleFormat
    }
}

public struct Rational: Sendable, Equatable, Codable, CustomStringConvertible {
    public var numerator: Int
    public var denominator: Int
    public init(_ numerator: Int, _ denominator: Int) { self.numerator = numerator; self.denominator = denominator }
    public var value: Double { denominator == 0 ? 0 : Double(numerator) / Double(denominator) }
    public var description: String { "\(numerator):\(denominator)" }
}

public struct Chapter: Sendable, Equatable, Codable {
    public var start: Double
    public var end: Double
    public var title: String?

    package init(start: Double, end: Double, title: String?) {
        self.start = start
        self.end = end
        self.title = title
    }
}
