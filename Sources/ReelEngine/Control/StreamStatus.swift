/// How far one stream of an item (its video, or its sound) has come, as mpv's `enum
/// playback_status` tells it for each of its streams: the control loop's watchers read and move
/// it instead of a flag each.
/// Threading: a value type.
enum StreamStatus: Equatable {
    /// The item has no such stream (or it is not known yet: the item is loading).
    case none
    /// A landing (an opening, a seek) waits for its first picture or sound.
    case syncing
    /// The landing's first picture or sound is decoded; `at`: the picture's time (nil for sound,
    /// or for a stream that ended before any picture).
    case ready(at: Double?)
    /// Shown or heard as the clock runs (or paused mid-way).
    case playing
    /// Run dry, with the demuxer still reading, since then: playback stalls a moment later.
    case starving(since: HostTime)
    /// All of it heard while pictures remain (sound only): the clock runs on its own.
    case ended

    var isReady: Bool { if case .ready = self { true } else { false } }

    /// Since when it has been starving, if it is.
    var starvingSince: HostTime? { if case .starving(let since) = self { since } else { nil } }
}

/// Where the item's demuxer is since the last request that moved it.
/// Threading: a value type.
enum DemuxerStatus: Equatable {
    /// Reading for the request with this serial (a retarget or a landing from decoded pictures
    /// leaves the demuxer, and its end, as they were).
    case reading(serial: Int)
    /// It met the end (or an error, `error`) for the request with this serial.
    case ended(serial: Int, error: PlayerError?)

    var serial: Int {
        switch self { case .reading(let serial), .ended(let serial, _): serial }
    }
}
