/// The silent output (no sound server, `--audio null`, freewheeling). It takes any format, so
/// the one made last is always lent again while the device holds it.
/// Threading: control thread only, like the device.
final class SilentOutputFactory: AudioOutputFactory {
    typealias Failure = Never
    /// The output made last; the device holds it, and closes it when it takes another.
    private weak var made: NullAudioOutput?

    func canReuse(_ output: AudioOutput, for format: AudioFormat) -> Bool { made === output }

    func make(fifo: AudioFifo, clock: PlaybackClock, name: String) -> AudioOutput {
        let output = NullAudioOutput(fifo: fifo, clock: clock)
        made = output
        return output
    }
}
