import Foundation

/// Choosing another audio stream (a dubbed language, a commentary). The demuxer routes the
/// chosen stream to the audio decoder, which takes up its codec at an exact seek to the picture
/// on screen: the picture stays, nothing is opened again, and the new sound starts in step
/// within a seek's time. Media that opened without sound (its stream could not be decoded) is
/// opened again with the chosen one instead.
/// Threading: control thread only, like the rest of `PlayerCore`.
extension PlayerCore {
    func switchAudio(to index: Int) {
        guard let session, session.info.selectedAudioStream != index,
              session.info.streams.contains(where: { $0.index == index && $0.kind == .audio }) else { return }
        // The external file's stream, or back from it to one of the media's: opened again.
        guard session.hasAudio, state.hasMedia, index < session.input.streamCount,
              session.externalAudio == nil else {
            reopen(session, withAudio: index)
            return
        }
        let stream = session.input.stream(index)
        let decoder: Decoder
        do throws(PlayerError) {
            decoder = try Decoder(stream: stream, threads: 1)
        } catch {
            let codec = session.info.stream(at: index)?.codec ?? "unknown"
            emit(.warning(.audioStreamRefused(stream: index, codec: codec, reason: error.detail)))
            return
        }
        dropNext()
        let here = current.preroll?.request.target ?? session.presentation?.currentFrame?.pts ?? session.clock.time()
        if state == .ended { guard transition(.seek) else { return } }
        seeks.endDrag()
        reseek(to: here, mode: .exact,
               audioSwitch: AudioSwitch(streamIndex: index, decoder: decoder, timeBase: stream.pointee.time_base))
        let info = session.info
        snapshot.withLock { $0.info = info }
        emit(.audioStreamChanged(info))
    }

    /// The media opened again with the chosen stream, continuing at the picture on screen,
    /// playing or paused as it was, with the same subtitles, added files and delays.
    /// The sound of `path` with this picture: the media opened again with it (see `reopen`);
    /// a file that cannot be read is warned of, and the media's own sound plays on.
    func addAudioFile(_ path: String) {
        let file: MediaSource
        do throws(PlayerError) { file = try MediaSource(parsing: path) } catch {
            emit(.warning(.audioFileFailed(name: path, reason: error.detail)))
            return
        }
        guard let session, state.hasMedia else {
            // Asked while the media is still opening (or right after `open`): it opens again
            // with the sound file, from where it was to start.
            guard state == .loading, let source = current.source else { return }
            tracks.pendingExternalAudio = file
            open(source)
            return
        }
        reopen(session, withAudio: nil, externalAudio: file)
    }

    func reopen(_ session: Session, withAudio index: Int?, externalAudio: MediaSource? = nil, webFormat: String? = nil) {
        let source = session.requested
        // A web page keeps the quality playing unless another is asked for.
        tracks.pendingWebFormat = webFormat ?? session.info.webFormat
        // The sound file stays while its stream is the one chosen (or a new one is added).
        tracks.pendingExternalAudio = externalAudio
            ?? (index.map(ExternalAudio.isExternal) == true ? session.externalAudio : nil)
        let here = session.presentation?.currentFrame?.pts ?? session.clock.time()
        let playing = state == .playing || state == .stalled
        let snapshot = tracks.state.snapshot.current
        let selected = snapshot.selected.flatMap { id in snapshot.tracks.first { $0.id == id } }
        var siblings = Set<String>()
        if case .file(let path) = source.location { siblings = Set(SubtitleLoader.siblings(of: path).map(\.path)) }
        let added = snapshot.tracks.compactMap { track -> String? in
            guard case .external(let path) = track.origin, !siblings.contains(path) else { return nil }
            return path
        }
        tracks.pendingAudioStream = index
        tracks.carriedOver = (selected?.origin, tracks.personChose)
        // Queued in order behind this command, as if the host had asked.
        mailbox.post(.command(.open(source)))
        mailbox.post(.command(.seek(to: here, mode: .exact)))
        for path in added { mailbox.post(.command(.track(.addFile(path, charset: nil)))) }
        if playing { mailbox.post(.command(.play)) }
    }
}
