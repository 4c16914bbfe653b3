import ReelEngine
import ReelGtk

/// Which of the window's actions can act now, in one table: each action that needs something
/// (media open, a picture, sound, tracks, a next item) is enabled only while it is there, so
/// menus show it insensitive and its key does nothing (GTK passes the key on instead). Actions
/// not named here (open, fullscreen, close, the remote's) are always enabled.
/// Threading: a value type; `PlayerWindow` applies it on the main thread.
struct ActionAvailability {
    /// What the conditions read: the player's model, the queue and the window.
    struct Facts: Equatable {
        var state: PlayerState = .idle
        /// What probing found is there (the media has loaded at least once).
        var hasInfo = false
        var hasVideo = false
        var hasAudio = false
        var audioStreams = 0
        var subtitleTracks = 0
        var inBreak = false
        var canGoNext = false
        var canGoPrevious = false
        var isFullscreen = false
        var infoCardShown = false
        /// Black bars were found to crop, or are cropped now.
        var blackBars = false
        /// The media has chapters (Page Up and Page Down step through them).
        var chapters = 0
        /// Items in the queue (with one, the media keys step its chapters).
        var queueItems = 0

        /// Something to play or pause: media loaded, loading, or waiting under a break.
        var mediaOpen: Bool { state.hasMedia || state == .loading || state == .suspended }
        /// Media whose time can be moved (not during a break, which has its own).
        var canSeek: Bool { state.hasMedia && !inBreak }
        /// The media keys' previous and next step chapters (`RemoteSteps`).
        var keysStepChapters: Bool { canSeek && RemoteSteps.stepsChapters(queueItems: queueItems, chapters: chapters) }
    }

    /// Action names (`win.` left off) and when each can act.
    static let table: [(action: String, when: @Sendable (Facts) -> Bool)] = [
        ("toggle-pause", \.mediaOpen), ("pause", \.mediaOpen), ("stop", \.mediaOpen),
        ("seek-backward", \.canSeek), ("seek-forward", \.canSeek),
        ("seek-backward-fine", \.canSeek), ("seek-forward-fine", \.canSeek),
        ("jump-backward", \.canSeek), ("jump-forward", \.canSeek),
        ("go-to-start", \.canSeek), ("go-to-end", \.canSeek),
        ("step-backward", { $0.canSeek && $0.hasVideo }), ("step-forward", { $0.canSeek && $0.hasVideo }),
        ("volume-up", \.mediaOpen), ("volume-down", \.mediaOpen), ("mute", \.mediaOpen),
        ("slower", \.canSeek), ("faster", \.canSeek), ("normal-speed", \.canSeek),
        ("speed", \.canSeek), ("speed-menu", \.canSeek),
        ("leave-fullscreen", \.isFullscreen),
        ("toggle-info", { $0.hasInfo || $0.infoCardShown }),
        ("cycle-deinterlace", { $0.state.hasMedia && $0.hasVideo }),
        // Subtitles go over a picture: adding, timing and choosing them wants one.
        ("subtitles-menu", { $0.state.hasMedia && $0.hasVideo }),
        ("add-audio", { $0.state.hasMedia && $0.hasVideo }), ("add-audio-file", { $0.state.hasMedia && $0.hasVideo }),
        ("add-subtitle", { $0.state.hasMedia && $0.hasVideo }), ("add-subtitle-file", { $0.state.hasMedia && $0.hasVideo }),
        ("subtitles-earlier", { $0.state.hasMedia && $0.hasVideo }), ("subtitles-later", { $0.state.hasMedia && $0.hasVideo }),
        ("subtitle-delay-earlier", { $0.state.hasMedia && $0.hasVideo }), ("subtitle-delay-later", { $0.state.hasMedia && $0.hasVideo }),
        ("subtitle-delay-reset", { $0.state.hasMedia && $0.hasVideo }),
        ("next-subtitle-track", { $0.state.hasMedia && $0.subtitleTracks > 0 }),
        ("cycle-subtitles", { $0.state.hasMedia && $0.subtitleTracks > 0 }),
        ("audio-menu", { $0.state.hasMedia && $0.hasAudio }),
        ("sound-earlier", { $0.state.hasMedia && $0.hasAudio }), ("sound-later", { $0.state.hasMedia && $0.hasAudio }),
        ("audio-delay-earlier", { $0.state.hasMedia && $0.hasAudio }), ("audio-delay-later", { $0.state.hasMedia && $0.hasAudio }),
        ("audio-delay-reset", { $0.state.hasMedia && $0.hasAudio }),
        ("next-audio-track", { $0.state.hasMedia && $0.audioStreams > 1 }),
        ("go-to-time", \.canSeek),
        ("ab-loop", \.canSeek),
        ("previous-chapter", { $0.canSeek && $0.chapters > 0 }), ("next-chapter", { $0.canSeek && $0.chapters > 0 }),
        ("chapters", { $0.canSeek && $0.chapters > 0 }),
        ("picture-menu", { $0.state.hasMedia && $0.hasVideo }),
        ("rotate-clockwise", { $0.state.hasMedia && $0.hasVideo }), ("rotate-anticlockwise", { $0.state.hasMedia && $0.hasVideo }),
        ("mirror", { $0.state.hasMedia && $0.hasVideo }),
        ("aspect", { $0.state.hasMedia && $0.hasVideo }), ("cycle-aspect", { $0.state.hasMedia && $0.hasVideo }),
        ("zoom-in", { $0.state.hasMedia && $0.hasVideo }), ("zoom-out", { $0.state.hasMedia && $0.hasVideo }),
        ("zoom-to-fill", { $0.state.hasMedia && $0.hasVideo }),
        ("pan-left", { $0.state.hasMedia && $0.hasVideo }), ("pan-right", { $0.state.hasMedia && $0.hasVideo }),
        ("pan-up", { $0.state.hasMedia && $0.hasVideo }), ("pan-down", { $0.state.hasMedia && $0.hasVideo }),
        ("reset-picture", { $0.state.hasMedia && $0.hasVideo }),
        ("colours-menu", { $0.state.hasMedia && $0.hasVideo }), ("reset-colours", { $0.state.hasMedia && $0.hasVideo }),
        ("contrast-down", { $0.state.hasMedia && $0.hasVideo }), ("contrast-up", { $0.state.hasMedia && $0.hasVideo }),
        ("brightness-down", { $0.state.hasMedia && $0.hasVideo }), ("brightness-up", { $0.state.hasMedia && $0.hasVideo }),
        ("gamma-down", { $0.state.hasMedia && $0.hasVideo }), ("gamma-up", { $0.state.hasMedia && $0.hasVideo }),
        ("saturation-down", { $0.state.hasMedia && $0.hasVideo }), ("saturation-up", { $0.state.hasMedia && $0.hasVideo }),
        ("crop-black-bars", { $0.state.hasMedia && $0.hasVideo && $0.blackBars }),
        ("save-frame", { $0.state.hasMedia && $0.hasVideo }), ("save-frame-plain", { $0.state.hasMedia && $0.hasVideo }),
        ("next-item", \.canGoNext), ("previous-item", \.canGoPrevious),
        ("media-next", { $0.canGoNext || $0.keysStepChapters }), ("media-previous", { $0.canGoPrevious || $0.keysStepChapters }),
    ]

    /// Each action of the table with whether it can act given `facts`.
    static func enabled(_ facts: Facts) -> [(action: String, enabled: Bool)] {
        table.map { ($0.action, $0.when(facts)) }
    }
}

extension ActionAvailability.Facts {
    /// The facts as the model, the queue and the window hold them now.
    @MainActor
    init(model: PlayerModel, canGoNext: Bool, canGoPrevious: Bool, isFullscreen: Bool, infoCardShown: Bool,
         blackBarsFound: Bool = false, queueItems: Int = 0) {
        let info = model.mediaInfo
        self.init(state: model.state, hasInfo: info != nil, hasVideo: model.hasVideo, hasAudio: info?.audioStream != nil,
                  audioStreams: info?.streams.filter { $0.kind == .audio && !$0.isAttachedPicture }.count ?? 0,
                  subtitleTracks: model.subtitles.tracks.count, inBreak: model.inBreak,
                  canGoNext: canGoNext, canGoPrevious: canGoPrevious, isFullscreen: isFullscreen, infoCardShown: infoCardShown,
                  blackBars: blackBarsFound || model.shape.transform.crop != nil, chapters: info?.chapters.count ?? 0,
                  queueItems: queueItems)
    }
}
