import Foundation

/// The subtitle half of the tracks: loads tracks when media opens, picks one by the
/// preferred languages, switches, adds files, and keeps the delays.
/// Threading: control thread only, like the rest of `PlayerCore`.
extension PlayerCore {

    func handle(_ command: TrackCommand) {
        let control = tracks
        switch command {
        case .select(let id):
            control.personChose = true
            select(id)
        case .addFile(let path, let charset):
            guard session != nil || current.loader != nil else {
                emit(.subtitleFileFailed(path: path, error: .unsupportedSource("no media is open to add subtitles to")))
                return
            }
            if charset == nil, let known = control.state.snapshot.current.tracks.first(where: { $0.origin == .external(path: path) }) {
                // Already loaded (found beside the media): show it rather than read it twice.
                control.personChose = true
                select(known.id)
                return
            }
            let id = control.nextExternalId
            control.nextExternalId += 1
            let chosen = charset ?? control.charset
            startJob { () -> [SubtitleReport] in
                do throws(PlayerError) {
                    let decoded = try SubtitleLoader.loadFile(path, id: id, charset: chosen)
                    return [.loaded([decoded], finished: false, chosenByPerson: true)]
                } catch {
                    return [.fileFailed(path: path, error: error)]
                }
            }
        case .setDelay(let seconds):
            guard seconds.isFinite else { return }
            let value = (seconds * 1000).rounded() / 1000
            control.state.snapshot.withLock { $0.delay = value }
            emit(.subtitleDelayChanged(value))
            emit(.displayInvalidated)
        case .setAudioDelay(let seconds):
            guard seconds.isFinite else { return }
            let value = (seconds * 1000).rounded() / 1000
            control.state.snapshot.withLock { $0.audioDelay = value }
            session?.clock.setAudioDelay(value)
            emit(.audioDelayChanged(value))
        case .setStyle(let style):
            control.state.snapshot.withLock { $0.style = style }
            emit(.displayInvalidated)
        case .setPreferredLanguages(let languages):
            control.preferredLanguages = languages
        case .setCharset(let charset):
            control.charset = charset
            reloadExternalTracks(charset: charset)
        case .selectAudio(let index):
            switchAudio(to: index)
        case .addAudioFile(let path):
            addAudioFile(path)
        case .selectWebFormat(let id):
            guard let session, state.hasMedia, session.info.webFormat != id,
                  session.info.webFormats.contains(where: { $0.id == id }) else { return }
            reopen(session, withAudio: nil, webFormat: id)
        case .preferAudio(let stream, let languages):
            if let languages { control.preferredAudioLanguages = languages } else { control.pendingAudioStream = stream }
        }
    }

    func handle(_ report: SubtitleReport) {
        let control = tracks
        switch report {
        case .loaded(let decoded, let finished, let chosenByPerson):
            var added: [SubtitleTrack] = []
            control.state.snapshot.withLock { s in
                for d in decoded {
                    // The same file again (added while the files beside the media were read, or
                    // read again in another encoding): it keeps its place and id; what the
                    // person asked for replaces what was read.
                    if case .external = d.track.origin,
                       let i = s.tracks.firstIndex(where: { $0.origin == d.track.origin && $0.id != d.track.id }) {
                        if chosenByPerson {
                            var again = d
                            again.track.id = s.tracks[i].id
                            s.tracks[i] = again.track
                            s.decoded[again.track.id] = again
                            added.append(again.track)
                        }
                        continue
                    }
                    s.decoded[d.track.id] = d
                    if let i = s.tracks.firstIndex(where: { $0.id == d.track.id }) { s.tracks[i] = d.track }
                    else { s.tracks.append(d.track); added.append(d.track) }
                }
                if finished { s.loading = false }
            }
            control.state.composer.invalidate()
            // The choice is made before the tracks are announced, so that a host restoring its
            // own choice on the announcement has the last word.
            if finished, let carried = control.carriedOver {
                control.carriedOver = nil
                control.personChose = carried.personChose
                let tracks = control.state.snapshot.current.tracks
                select(carried.origin.flatMap { origin in tracks.first { $0.origin == origin }?.id }, announceUnchanged: false)
            } else if control.carriedOver != nil, !finished {
                // Files added again after the reopening: their choice waits for the streams.
                if chosenByPerson, let track = added.first, track.origin == control.carriedOver?.origin {
                    control.carriedOver = nil
                    control.personChose = true
                    select(track.id)
                }
            } else if chosenByPerson, let track = added.first {
                // A file the person added is what they want to see.
                control.personChose = true
                select(track.id)
            } else if !control.personChose {
                select(automaticChoice(), announceUnchanged: false)
            }
            emit(.subtitleTracksChanged(control.state.snapshot.current.tracks))
            emit(.displayInvalidated)
        case .fileFailed(let path, let error):
            emit(.subtitleFileFailed(path: path, error: error))
        }
    }

    /// Called once the media is open: reads the files beside it and its own subtitle streams.
    func startSubtitles(for info: MediaInfo, source: MediaSource) {
        stopSubtitles()
        let control = tracks
        control.personChose = false
        control.nextExternalId = 1000
        // Remote media's own tracks are read as it plays (StreamingSubtitles): listed now, empty.
        let streamed = session?.streamingSubtitles?.initialTracks ?? []
        let audioDelay = control.state.snapshot.withLock { s -> Double in
            s.tracks = streamed.map(\.track); s.decoded = [:]; s.selected = nil
            for d in streamed { s.decoded[d.track.id] = d }
            s.loading = true
            return s.audioDelay
        }
        session?.clock.setAudioDelay(audioDelay)
        emit(.subtitleTracksChanged([]))
        var siblings: [(path: String, language: String?, id: Int)] = []
        if case .file(let path) = source.location {
            for s in SubtitleLoader.siblings(of: path) {
                siblings.append((s.path, s.language, control.nextExternalId))
                control.nextExternalId += 1
            }
        }
        let charset = control.charset
        let files = siblings
        let stop = InterruptFlag()
        control.stopLoading = stop
        startJob { () -> [SubtitleReport] in
            // Files first (quick), then the media's own streams (a second pass over the file).
            var reports: [SubtitleReport] = []
            var decoded: [DecodedSubtitles] = []
            for s in files {
                do throws(PlayerError) {
                    decoded.append(try SubtitleLoader.loadFile(s.path, id: s.id, language: s.language, charset: charset))
                } catch {
                    reports.append(.fileFailed(path: s.path, error: error))
                }
            }
            let embedded = SubtitleLoader.loadEmbedded(source, info: info, interrupt: stop)
            reports.append(.loaded(decoded + embedded, finished: true, chosenByPerson: false))
            return reports
        }
    }

    /// Remote media: a track read further while playing. Its cues are replaced; if it is the
    /// one shown, the picture is redrawn with them.
    func subtitlesRead(_ decoded: DecodedSubtitles) {
        let shown = tracks.state.snapshot.withLock { s -> Bool in
            guard s.tracks.contains(where: { $0.id == decoded.track.id }) else { return false }
            s.decoded[decoded.track.id] = decoded
            return s.selected == decoded.track.id
        }
        guard shown else { return }
        tracks.state.composer.invalidate()
        emit(.displayInvalidated)
    }

    func stopSubtitles() {
        tracks.stopLoading.abort()
        for job in tracks.jobs { job.join() }
        tracks.jobs = []
    }

    private func startJob(_ body: @escaping @Sendable () -> [SubtitleReport]) {
        let gen = current.generation
        let mailbox = self.mailbox
        tracks.jobs.append(EngineThread(name: "reel.subtitles", owner: owner) {
            for report in body() { mailbox.post(.subtitles(report, generation: gen)) }
        })
    }

    private func select(_ id: Int?, announceUnchanged: Bool = true) {
        let state = tracks.state
        let (old, new, changed) = state.snapshot.withLock { s -> (SubtitleTrack?, SubtitleTrack?, Bool) in
            let old = s.selected.flatMap { i in s.tracks.first { $0.id == i } }
            let valid = id.flatMap { i in s.tracks.first { $0.id == i } }
            s.selected = valid?.id
            return (old, valid, old?.id != valid?.id)
        }
        guard changed || announceUnchanged else { return }
        emit(.subtitleChanged(from: old, to: new))
        emit(.displayInvalidated)
    }

    /// The preferred languages in order; else a file beside the video; else the media's
    /// default-flagged stream; else none.
    private func automaticChoice() -> Int? {
        let tracks = self.tracks.state.snapshot.current.tracks
        for wanted in self.tracks.preferredLanguages {
            let code = LanguageNames.normalized(wanted)
            if let track = tracks.first(where: { LanguageNames.normalized($0.language) == code }) { return track.id }
        }
        if let external = tracks.first(where: { if case .external = $0.origin { true } else { false } }) { return external.id }
        return tracks.first { $0.isDefault }?.id
    }

    private func reloadExternalTracks(charset: String?) {
        let texts = tracks.state.snapshot.current.tracks.compactMap { track -> (String, Int, String?)? in
            guard case .external(let path) = track.origin, !track.isBitmap else { return nil }
            return (path, track.id, track.language)
        }
        guard !texts.isEmpty else { return }
        startJob { () -> [SubtitleReport] in
            texts.map { path, id, language in
                do throws(PlayerError) {
                    return .loaded([try SubtitleLoader.loadFile(path, id: id, language: language, charset: charset)],
                                   finished: false, chosenByPerson: false)
                } catch {
                    return .fileFailed(path: path, error: error)
                }
            }
        }
    }
}
