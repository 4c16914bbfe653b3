/// How an item's play ended, once every picture and sound it got is out: an error when the
/// demuxer stopped on one, or when the download of remote media failed and the media's end was
/// never reached (what was cached ran out, whatever FFmpeg made of the missing rest); else a
/// clean end. The second guards the end of a play against the network's failure passing for the
/// media's end: with the download gone, no read may be taken for the end of the file.
/// Threading: a value type.
struct EndVerdict {
    /// How far from the end a play may stop and still have reached it (the last picture's
    /// duration, a container's rounded length).
    static let slack = 0.5

    static func error(demuxError: PlayerError?, downloadFailure: PlayerError?, position: Double,
                      duration: Double?) -> PlayerError? {
        if let demuxError { return demuxError }
        guard let downloadFailure, let duration, duration > 0, position < duration - slack else { return nil }
        return downloadFailure
    }
}
