/// Loudness levelling on or off: kept for the items to come, and switched in every session that
/// decodes sound now (the item playing, the one prepared to follow it, the A-B loop's start), so
/// the sound after a gapless hand-over or a loop's jump is levelled alike. Unlike a speed change
/// it needs no seek: the audio decoder cross-fades from the next sound it decodes.
/// Threading: control thread only, like the rest of `PlayerCore`.
extension PlayerCore {
    func setLevelling(_ on: Bool) {
        guard on != sound.levelling else { return }
        sound.levelling = on
        snapshot.withLock { $0.levelling = on }
        for session in [current.session, next?.session, loopStart?.session] { session?.setLevelling(on) }
        emit(.levellingChanged(on))
    }
}
