import Foundation

/// Choosing another audio stream (a dubbed language, a commentary). The decoders are built for
/// one stream when the media opens, so the media opens again with the chosen one and picks up
/// where the picture was: the person sees a short reload, never a jump in position.
/// Threading: control thread only, like the rest of `PlayerCore`.
extension PlayerCore {
    /// Another audio stream: the media is opened again with it and continues at the picture on
    /// screen, playing or paused as it was, with the same subtitles, added files and delays.
    func switchAudio(to index: Int) {
        guard let session, session.info.selectedAudioStream != index,
              session.info.streams.contains(where: { $0.index == index && $0.kind == .audio }) else { return }
        let source = session.input.source
        let here = session.presentation?.currentFrame?.pts ?? session.clock.time()
        let playing = state == .playing || state == .stalled
        let snapshot = subtitles.state.snapshot.current
        let selected = snapshot.selected.flatMap { id in snapshot.tracks.first { $0.id == id } }
        var siblings = Set<String>()
        if case .file(let path) = source.location { siblings = Set(SubtitleLoader.siblings(of: path).map(\.path)) }
        let added = snapshot.tracks.compactMap { track -> String? in
            guard case .external(let path) = track.origin, !siblings.contains(path) else { return nil }
            return path
        }
        subtitles.pendingAudioStream = index
        subtitles.carriedOver = (selected?.origin, subtitles.personChose)
        // Queued in order behind this command, as if the host had asked.
        mailbox.post(.command(.open(source)))
        mailbox.post(.command(.seek(to: here, mode: .exact)))
        for path in added { mailbox.post(.command(.subtitle(.addFile(path, charset: nil)))) }
        if playing { mailbox.post(.command(.play)) }
    }
}
