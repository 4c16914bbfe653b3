import Foundation

/// The player's subtitles: the tracks found so far and their decoded cues, the selection,
/// the delays and the style. Written by the control thread, read by whoever draws.
/// Threading: any thread; every field sits behind one lock.
final class SubtitleState: Sendable {
    struct Snapshot {
        var tracks: [SubtitleTrack] = []
        var decoded: [Int: DecodedSubtitles] = [:]
        var selected: Int?
        /// Seconds the subtitles are shown later (negative: earlier).
        var delay: Double = 0
        /// Seconds the sound is heard later (negative: earlier).
        var audioDelay: Double = 0
        var style = SubtitleStyle()
        /// Still reading the media's own subtitle streams.
        var loading = false
    }

    let snapshot = Locked(Snapshot())
    let composer = SubtitleComposer()

    var selectedTrack: SubtitleTrack? {
        let s = snapshot.current
        return s.selected.flatMap { id in s.tracks.first { $0.id == id } }
    }

    /// The subtitles over a picture of media time `time`, drawn at `width`×`height` for a video
    /// of `videoWidth`×`videoHeight`; nil when none are shown then.
    func image(at time: Double, width: Int, height: Int, videoWidth: Int, videoHeight: Int,
               lift: Double = 0) -> SubtitleImage? {
        let s = snapshot.current
        guard let id = s.selected, let decoded = s.decoded[id] else { return nil }
        return composer.image(of: decoded, at: time - s.delay, width: width, height: height,
                              videoWidth: videoWidth, videoHeight: videoHeight, style: s.style, lift: lift)
    }
}
