import ReelEngine

/// A seek with the controls hidden (a key, a held arrow's scan, the remote) shows where it goes
/// on the billboard: the time and a slim bar of the whole media, as mpv's OSD bar does on every
/// seek; first the time asked for, then the one it landed on. With the controls up the scrubber
/// says it, so the billboard does not.
/// Threading: main thread only.
extension PlayerView {
    /// `asked`: the seek was just asked for (the icon says which way it goes); else it landed.
    func showSeek(at time: Double, asked: Bool) {
        // Opening media seeks before it is known (a resume, `--start`): nothing to show yet.
        guard model.mediaInfo != nil, model.hasMedia, !model.inBreak, !visibility.barShown else { return }
        let duration = model.duration
        let text = TimeText.elapsed(time, reference: duration, frameRate: model.frameRate, options: settings.timeOptions)
            + (duration.map { " / " + TimeText.elapsed($0, reference: $0, frameRate: model.frameRate, options: settings.timeOptions) } ?? "")
        let fraction = duration.flatMap { $0 > 0 ? time / $0 : nil }
        billboard.seek(text, fraction: fraction, forward: asked ? time >= model.position : nil)
    }
}
