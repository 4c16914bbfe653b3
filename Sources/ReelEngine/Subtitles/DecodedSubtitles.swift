/// One decoded subtitle event on the media's timeline (seconds from the media's start).
/// Threading: a value type.
struct SubtitleCue: Sendable {
    enum Content: Sendable {
        /// An ASS Dialogue line's fields after the timing ("ReadOrder,Layer,Style,...,Text"),
        /// as libavcodec's text decoders emit them.
        case ass(String)
        /// Pictures placed on a canvas of the track's `canvasSize`.
        case bitmaps([SubtitleBitmap])
    }
    var start: Double
    var end: Double
    var content: Content
}

/// One bitmap subtitle rectangle, already expanded from its palette to straight RGBA.
/// Threading: a value type.
struct SubtitleBitmap: Sendable {
    var x: Int
    var y: Int
    var width: Int
    var height: Int
    /// width × height × 4 bytes, RGBA, not premultiplied.
    var rgba: [UInt8]
}

/// A track's decoded contents. Threading: a value type, shared read-only once built.
struct DecodedSubtitles: Sendable {
    var track: SubtitleTrack
    /// The ASS script header (styles, PlayRes) the decoder gave, for text tracks.
    var header: String?
    /// For bitmap tracks: the size their positions refer to (0 × 0 when the stream does not say).
    var canvasWidth: Int
    var canvasHeight: Int
    var cues: [SubtitleCue]
    /// True for ASS/SSA sources, whose own styles are honoured unless the user overrides them.
    var isStyled: Bool
}
