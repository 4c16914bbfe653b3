import ReelEngine

extension PlayerModel {
    /// Where playback is in the media, as the player last said, and the seek asked for that
    /// has not landed yet. Threading: a value type.
    public struct Timeline: Sendable, Equatable {
        public internal(set) var position = 0.0
        public internal(set) var duration: Double?
        /// Played to the end: the time reads the whole length until the player moves again
        /// (the last time it reports is its last picture's or sound's start, a moment before).
        public internal(set) var playedThrough = false
        /// A seek asked for and not landed yet: a key pressed again steps on from there, not
        /// from where the picture still is.
        public internal(set) var seekTarget: Double?
        /// Rewind or fast forward is held: the scan moves the position, and the player is
        /// paused by it, not by the person.
        public internal(set) var isScanning = false
        /// The scan ended and play resumes: it counts until the player's next change of state.
        var scanEndsWithState = false
        /// When `position` was reported (`Clock.now`), to carry it on while playing.
        var reportedAt = 0.0

        /// What the scrubber and the time labels show.
        public var shown: Double { playedThrough ? (duration ?? position) : position }

        /// When a report came is not what it says: the same position reported again is no change.
        public static func == (a: Timeline, b: Timeline) -> Bool {
            a.position == b.position && a.duration == b.duration && a.playedThrough == b.playedThrough
                && a.seekTarget == b.seekTarget && a.isScanning == b.isScanning
        }
    }

    /// The sound's level and timing. Threading: a value type.
    public struct Sound: Sendable, Equatable {
        public internal(set) var volume = 1.0
        public internal(set) var isMuted = false
        /// Loudness levelling is on.
        public internal(set) var isLevelling = false
        /// Seconds the sound is heard later than the picture (negative: earlier).
        public internal(set) var delay = 0.0
    }

    /// The subtitle tracks known, the one shown and its timing. Threading: a value type.
    public struct Subtitles: Sendable, Equatable {
        public internal(set) var tracks: [SubtitleTrack] = []
        public internal(set) var selected: SubtitleTrack?
        /// Seconds the subtitles are shown later than their times (negative: earlier).
        public internal(set) var delay = 0.0
    }

    /// A break (an interstitial) playing in the media's place: its own time. Threading: a value type.
    public struct BreakTime: Sendable, Equatable {
        public internal(set) var position = 0.0
        public internal(set) var duration: Double?
    }

    /// What one step of the model changed, and the moment it was, if any: observers look at
    /// the parts they show. Threading: a value type.
    public struct Change: Sendable {
        public let aspects: Aspects
        public let moment: PlayerMoment?
        /// The state before this change (equal to the model's when the state did not change).
        public let previousState: PlayerState
        /// The player said where playback is: its periodic time (a few times a second while it
        /// plays, and after state changes) or a seek's landing.
        public var reportsPosition = false

        public func contains(_ aspect: Aspects) -> Bool { !aspects.isDisjoint(with: aspect) }
    }

    /// The parts of the model. Threading: a value type.
    public struct Aspects: OptionSet, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }

        public static let state = Aspects(rawValue: 1 << 0)
        /// What is open: its name, the source and what probing found (`mediaInfo`).
        public static let media = Aspects(rawValue: 1 << 1)
        /// Where playback is (and the length, the end reached, a seek asked for).
        public static let timeline = Aspects(rawValue: 1 << 2)
        /// The media's length (also counted as `timeline`).
        public static let duration = Aspects(rawValue: 1 << 10)
        public static let speed = Aspects(rawValue: 1 << 3)
        public static let sound = Aspects(rawValue: 1 << 4)
        public static let subtitles = Aspects(rawValue: 1 << 5)
        public static let buffered = Aspects(rawValue: 1 << 6)
        public static let breakTime = Aspects(rawValue: 1 << 7)
        public static let warnings = Aspects(rawValue: 1 << 8)
        public static let controls = Aspects(rawValue: 1 << 9)
        /// What is done to the pictures before they are drawn (deinterlacing).
        public static let picture = Aspects(rawValue: 1 << 11)
        /// How the person has shaped the picture on screen (`shape`).
        public static let shape = Aspects(rawValue: 1 << 12)
        /// The video equalizer (`equalizer`).
        public static let equalizer = Aspects(rawValue: 1 << 13)
        /// The A-B loop (`loop`).
        public static let loop = Aspects(rawValue: 1 << 14)
    }
}
