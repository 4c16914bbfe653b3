import Foundation
import ReelCommandLine
import ReelEngine

/// `reel-tool play`'s bookkeeping: prints events as JSON lines (or a progress line for
/// people), ticks once a second, and decides when playback is over.
/// Threading: events arrive on the player's control thread; `waitForEnd` runs on the main thread.
final class PlaySession: @unchecked Sendable {
    enum Outcome { case ended, stoppedByLimit, interrupted, failed(PlayerError) }

    // Safe: the mutable fields are guarded by `lock`; `player` is set once before playback.
    var player: (any PlaybackController)?
    private var statistics: PlaybackStatistics? {
        player?.statistics
    }
    private let json: Bool
    private let frameLimit: Int?
    private var loopsLeft: Int
    /// Items still to play after the current one (each set as the player's next in turn).
    private var following: [MediaSource]
    private let lock = NSLock()
    private var lastShownPts: Double?
    private var lastDrift: Double?
    private var shownCount = 0
    private var outcome: Outcome?
    private var playStart: HostTime?
    private let wake = NSCondition()
    private let started = HostTime.now
    /// Levelling switched over at these media times (`--toggle-levelling-at`).
    var levellingToggles = LevellingToggles([])

    init(json: Bool, frameLimit: Int?, loops: Int, following: [MediaSource] = []) {
        self.json = json
        self.frameLimit = frameLimit
        loopsLeft = loops
        self.following = following
    }

    /// Tells the player what follows the current item.
    func setNext() {
        lock.lock()
        let next = following.first
        lock.unlock()
        player?.setNext(next, audioStream: nil)
    }

    /// The player's event sink. Events are handled as they come, never kept: a long play
    /// reports one event per frame.
    var sink: @Sendable (PlayerEvent) -> Void { { [weak self] event in self?.handle(event) } }

    private func handle(_ event: PlayerEvent) {
        if case .frameShown(let report) = event { levellingToggles.passed(report.pts, player: player) }
        if case .time(let position, _) = event { levellingToggles.passed(position, player: player) }
        if case .frameShown(let report) = event {
            lock.lock()
            lastShownPts = report.pts
            lastDrift = report.drift
            shownCount += 1
            let reachedLimit = frameLimit.map { shownCount >= $0 } ?? false
            lock.unlock()
            if reachedLimit { settle(.stoppedByLimit) }
            return
        }
        // Report first, then act: acting may end the run, and the report must come before
        // the summary. Once the outcome is decided nothing more is printed, so the summary is
        // always the last line: the check and the printing are one step under `wake`, where
        // the outcome is decided, so no event can slip out after it (closing the player
        // reports its `closed` state while the summary is being written).
        wake.lock()
        if outcome != nil { wake.unlock(); return }
        if json {
            if let line = line(for: event) { Output.line(line) }
        } else if case .time(let position, let duration) = event {
            progress(position, duration)
        } else if case .warning(let warning) = event {
            Output.note("reel-tool: \(warning)")
        }
        wake.unlock()
        // The engine reports `played_to_end` right after the `ended` state: the run is over
        // once both are out.
        if case .nextItemStarted = event {
            lock.lock()
            if !following.isEmpty { following.removeFirst() }
            lock.unlock()
            setNext()
        }
        if case .playedToEnd = event {
            lock.lock()
            // An item that could not be prepared ahead is opened now, the ordinary way.
            if !following.isEmpty {
                let next = following.removeFirst()
                lock.unlock()
                player?.open(next)
                setNext()
                player?.play()
                return
            }
            loopsLeft -= 1
            let again = loopsLeft > 0
            lock.unlock()
            if again { player?.play() } else { settle(.ended) }
        }
        guard case .stateChanged(_, let to) = event else { return }
        if to == .playing { lock.lock(); if playStart == nil { playStart = .now }; lock.unlock() }
        if case .failed(let error) = to { settle(.failed(error)) }
    }

    private func line(for event: PlayerEvent) -> [String: Any]? {
        let t = Output.round(HostTime.now.seconds(since: started))
        switch event {
        case .stateChanged(let from, let to):
            var o: [String: Any] = ["event": "state", "from": from.name, "to": to.name, "t": t]
            if let e = to.error { o["error"] = ["code": e.code, "message": e.message] }
            return o
        case .durationKnown(let d): return ["event": "duration", "duration": Output.round(d), "t": t]
        case .mediaLoaded(let info):
            return ["event": "loaded", "t": t, "info": MediaInfoJSON.object(info)]
        case .firstFrameShown(let pts): return ["event": "first_frame", "pts": Output.round(pts, 6), "t": t]
        case .seekCompleted(let p): return ["event": "seek_completed", "position": Output.round(p), "t": t]
        case .playedToEnd: return ["event": "played_to_end", "t": t]
        case .nextItemStarted(let source): return ["event": "next_item", "source": source.description, "t": t]
        case .audioStreamChanged(let info): return ["event": "audio_stream", "index": info.selectedAudioStream as Any, "t": t]
        case .warning(let w): return ["event": "warning", "code": w.code, "message": w.description, "t": t]
        case .volumeChanged(let v, let m): return ["event": "volume", "volume": v, "muted": m, "t": t]
        case .speedChanged(let s): return ["event": "speed", "speed": s, "t": t]
        case .levellingChanged(let on): return ["event": "levelling", "on": on, "t": t]
        case .loopChanged(let span):
            return ["event": "loop", "a": span.map { Output.round($0.start) } as Any,
                    "b": span?.end.map { Output.round($0) } as Any, "t": t]
        case .deinterlacingChanged(let status): return ["event": "deinterlacing", "t": t, "deinterlacing": DeinterlaceJSON.object(status)]
        case .time(let position, _):
            let stats = statistics
            lock.lock()
            defer { lock.unlock() }
            return ["event": "tick", "t": t, "clock": Output.round(position),
                    "shown_pts": lastShownPts.map { Output.round($0, 6) } as Any,
                    "drift_ms": lastDrift.map { Output.round($0 * 1000, 2) } as Any,
                    "frames_shown": stats?.framesShown ?? 0,
                    "frames_dropped": stats?.framesDropped ?? 0,
                    "rss_mb": ResourceUsage.residentMB.map { Output.round($0, 1) } as Any,
                    "heap_mb": Output.round(ResourceUsage.heapInUseMB, 2)]
        case .subtitleChanged(let from, let to):
            return ["event": "subtitle_changed", "from": from?.language as Any, "to": to?.language as Any,
                    "track": to?.id as Any, "t": t]
        case .subtitleDelayChanged(let d): return ["event": "subtitle_delay", "delay": d, "t": t]
        case .audioDelayChanged(let d): return ["event": "audio_delay", "delay": d, "t": t]
        case .subtitleFileFailed(let path, let error):
            return ["event": "subtitle_failed", "path": path, "code": error.code, "message": error.message, "t": t]
        case .downloadFinished(let path): return ["event": "download_finished", "path": path, "t": t]
        case .downloadFailed(let e):
            return ["event": "download_failed", "error": ["code": e.code, "message": e.message], "t": t]
        case .reconnecting(let attempt, let reason):
            return ["event": "reconnecting", "attempt": attempt, "reason": reason, "t": t]
        case .interstitialStarted(let r):
            return ["event": "interstitial_started", "index": r.index, "source": r.source.displayName, "at": Output.round(r.at, 6),
                    "main_position": Output.round(player?.position ?? 0, 6), "t": t]
        case .interstitialProgress(let position, _):
            return ["event": "interstitial_tick", "position": Output.round(position), "t": t]
        case .interstitialEnded(let r, let error):
            var o: [String: Any] = ["event": "interstitial_ended", "index": r.index, "at": Output.round(r.at, 6), "t": t]
            if let error { o["error"] = ["code": error.code, "message": error.message] }
            return o
        case .transitionVetoed, .frameShown, .displayInvalidated, .downloadProgress, .subtitleTracksChanged, .pictureDecodedAhead:
            return nil
        }
    }

    private func progress(_ position: Double, _ duration: Double?) {
        let total = duration.map { " / " + TimeFormat.clock($0) } ?? ""
        Output.progress("\r\(TimeFormat.clock(position))\(total)   ")
    }

    /// Decides how the run ends, unless that is already decided; returns what was decided.
    @discardableResult
    private func settle(_ result: Outcome) -> Outcome {
        wake.lock()
        defer { wake.unlock() }
        if outcome == nil { outcome = result }
        wake.broadcast()
        return outcome!
    }

    /// Blocks until the media ends, fails, the limit passes, or the person interrupts.
    func waitForEnd(limit: Double?, interrupted: InterruptWatch) -> Outcome {
        while true {
            wake.lock()
            if let outcome { wake.unlock(); return outcome }
            _ = wake.wait(until: Date(timeIntervalSinceNow: 0.05))
            let done = outcome
            wake.unlock()
            if let done { return done }
            interrupted.fired.lock()
            let stop = interrupted.didFire
            interrupted.fired.unlock()
            if stop { return settle(.interrupted) }
            lock.lock()
            let start = playStart
            lock.unlock()
            if let limit, let start, HostTime.now.seconds(since: start) >= limit { return settle(.stoppedByLimit) }
        }
    }

    func finish(statistics s: PlaybackStatistics, outcome: Outcome) {
        if !json { Output.progress("\n"); return }
        let name: String
        switch outcome {
        case .ended: name = "ended"
        case .stoppedByLimit: name = "stopped"
        case .interrupted: name = "interrupted"
        case .failed: name = "failed"
        }
        Output.line([
            "event": "summary", "outcome": name,
            "frames_shown": s.framesShown, "frames_dropped": s.framesDropped,
            "frames_decoded": s.framesDecoded, "decode_errors": s.decodeErrors,
            "drift_ms_p95": s.driftP95Milliseconds.map { Output.round($0, 2) } as Any,
            "drift_ms_max": s.driftMaxMilliseconds.map { Output.round($0, 2) } as Any,
            "audio_output": s.audioOutput as Any,
            "audio_format": s.audioFormat.map { "\($0)" } as Any,
            "wall_s": Output.round(HostTime.now.seconds(since: started)),
            "peak_rss_mb": Output.round(ResourceUsage.peakResidentMB, 1),
            "rss_mb": ResourceUsage.residentMB.map { Output.round($0, 1) } as Any,
            "heap_mb": Output.round(ResourceUsage.heapInUseMB, 2),
        ])
    }
}
