/// A sound track from a file of its own, played in place of the media's sound (an Audio ▸ Add
/// Audio File… choice, or a web page's format whose sound comes apart from its picture). Its
/// stream is listed among the media's audio streams under an index of its own, above any the
/// container can have.
/// Threading: a value type.
public enum ExternalAudio {
    /// Stream indexes from here on name the external file's streams (index − base there).
    public static let base = 1_000_000

    public static func isExternal(_ index: Int) -> Bool { index >= base }
}
