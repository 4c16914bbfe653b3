@testable import ReelApp
import ReelEngine
import Testing

/// Which window actions can act, from the facts the window reads, without a window.
/// Threading: main actor (the key table); no window.
@Suite("Window actions: offered only when they can act")
@MainActor
struct ActionAvailabilityTests {
    typealias Facts = ActionAvailability.Facts

    static func enabled(_ facts: Facts) -> Set<String> {
        Set(ActionAvailability.enabled(facts).filter(\.enabled).map(\.action))
    }

    static let video = Facts(state: .playing, hasInfo: true, hasVideo: true, hasAudio: true, audioStreams: 1,
                             subtitleTracks: 0, canGoPrevious: true)

    @Test("Nothing open: none of the table's actions can act (open, fullscreen and close are not in it)")
    func nothingOpen() {
        for state in [PlayerState.idle, .closed, .failed(.fileNotFound("a.mp4"))] {
            #expect(Self.enabled(Facts(state: state)).isEmpty, "\(state): \(Self.enabled(Facts(state: state)).sorted())")
        }
        let names = ActionAvailability.table.map(\.action)
        for always in ["open", "open-url", "fullscreen", "close", "play-demo", "save-picture", "schedule-break"] {
            #expect(!names.contains(always), "\(always) should always act")
        }
    }

    @Test("A film with sound plays: saving, speed, seeking, steps, subtitles and sound act; one sound stream cannot be cycled")
    func filmPlays() {
        let on = Self.enabled(Self.video)
        for action in ["save-frame", "save-frame-plain", "toggle-info", "speed", "speed-menu", "toggle-pause", "seek-forward",
                       "step-forward", "add-subtitle", "subtitles-menu", "subtitle-delay-later", "audio-menu",
                       "audio-delay-later", "volume-up", "mute", "previous-item"] {
            #expect(on.contains(action), "\(action) is off")
        }
        for action in ["next-audio-track", "next-subtitle-track", "cycle-subtitles", "next-item", "leave-fullscreen"] {
            #expect(!on.contains(action), "\(action) is on")
        }
        var more = Self.video
        more.audioStreams = 2
        more.subtitleTracks = 1
        more.canGoNext = true
        more.isFullscreen = true
        let all = Self.enabled(more)
        for action in ["next-audio-track", "next-subtitle-track", "cycle-subtitles", "next-item", "leave-fullscreen"] {
            #expect(all.contains(action), "\(action) is off")
        }
    }

    @Test("Sound alone: no picture to save, step or put subtitles on; a silent film: no sound menu")
    func soundOrPictureAlone() {
        var sound = Self.video
        sound.hasVideo = false
        let on = Self.enabled(sound)
        for action in ["save-frame", "save-frame-plain", "step-forward", "step-backward", "add-subtitle", "subtitles-menu"] {
            #expect(!on.contains(action), "\(action) is on for sound alone")
        }
        #expect(on.contains("audio-menu") && on.contains("seek-forward"))
        var silent = Self.video
        silent.hasAudio = false
        silent.audioStreams = 0
        #expect(!Self.enabled(silent).contains("audio-menu"))
        #expect(!Self.enabled(silent).contains("sound-later"))
    }

    @Test("Loading: play and pause act, seeking and saving wait; in a break the main item cannot be sought or sped")
    func loadingAndBreaks() {
        var loading = Facts(state: .loading)
        #expect(Self.enabled(loading) == ["toggle-pause", "pause", "stop", "volume-up", "volume-down", "mute"])
        loading.canGoNext = true
        #expect(Self.enabled(loading).contains("next-item"))
        var pause = Self.video
        pause.state = .suspended
        pause.inBreak = true
        let on = Self.enabled(pause)
        #expect(on.contains("toggle-pause"))
        for action in ["seek-forward", "go-to-end", "faster", "speed", "step-forward", "save-frame"] {
            #expect(!on.contains(action), "\(action) acts during a break")
        }
    }

    @Test("Chapters: the list and Page Up/Down with chapters; the media keys step them with one item, the queue with several")
    func chapters() {
        var facts = Self.video
        facts.canGoPrevious = false
        facts.queueItems = 1
        #expect(Self.enabled(facts).isDisjoint(with: ["chapters", "next-chapter", "previous-chapter", "media-next", "media-previous"]))
        facts.chapters = 2
        #expect(Self.enabled(facts).isSuperset(of: ["chapters", "next-chapter", "previous-chapter", "media-next", "media-previous"]))
        facts.queueItems = 2
        #expect(Self.enabled(facts).isDisjoint(with: ["media-next", "media-previous"]))
        facts.canGoNext = true
        #expect(Self.enabled(facts).contains("media-next"))
        facts.inBreak = true
        facts.queueItems = 1
        facts.canGoNext = false
        #expect(Self.enabled(facts).isDisjoint(with: ["chapters", "next-chapter", "media-next", "media-previous"]))
    }

    @Test("The info card, once shown, can always be hidden")
    func infoCard() {
        var facts = Facts(state: .idle)
        facts.infoCardShown = true
        #expect(Self.enabled(facts) == ["toggle-info"])
    }

    @Test("Every key of the window that needs media is in the table, under its own name")
    func keysCovered() {
        let table = Set(ActionAvailability.table.map(\.action))
        let always: Set = ["fullscreen", "close"]
        for key in KeyAction.window where !always.contains(key.name) {
            #expect(table.contains(key.name), "the key action \(key.name) is offered whatever the window holds")
        }
    }
}
