import Foundation

/// The player's one sound output for its whole life (as a player context owns its audio output):
/// sessions borrow it. Lending it is handing it the session's FIFO and clock (`adopt`); from then
/// on that session is the borrower — the one whose FIFO it reads — and only the borrower starts,
/// pauses or flushes it. A session that is not the borrower (a gapless follower being prepared,
/// one that was replaced) leaves it alone; nobody but this device closes it.
///
/// A new sound server stream is opened only when the format the device must be fed changes (the
/// sink's rate, at most its channel count and the media's), or when the stream or its server went
/// away; otherwise the next item plays on the same stream. Without a sound server (or with
/// `--audio null`, or freewheeling) the output is a silent one, which takes any format. Each
/// kind has its factory (`PulseOutputFactory`, `SilentOutputFactory`), which says whether the
/// output held can be lent again and makes a new one.
/// Threading: control thread only (sessions are made there); the outputs lock internally.
final class SoundDevice {
    /// What a session is given: the FIFO to decode into, the output it plays on (borrowed now or
    /// later), and why there is no sound if there is none.
    struct Loan {
        let fifo: AudioFifo
        let output: AudioOutput
        let warning: PlayerWarning?
    }

    /// The sound server's streams; nil when this player plays silently (`--audio null`,
    /// freewheeling).
    private let soundServer: PulseOutputFactory?
    private let silence = SilentOutputFactory()
    /// The output lent last (nil before the first): the sound server's stream or the silent one.
    private(set) var output: AudioOutput?

    init(configuration: PlayerConfiguration) {
        soundServer = configuration.audioOutput == .pulse && !configuration.freewheel
            ? PulseOutputFactory(server: configuration.soundServer, device: configuration.audioDevice)
            : nil
    }

    /// Lends the output to a new session: its FIFO is made (`makeFifo`) in the format the device
    /// is fed, and read from the next start on. `lendsNow` false: a follower prepared while the
    /// current session borrows the output; its FIFO is in the output's format if the stream can
    /// chain it, and it borrows the output only when it takes over (`adopt`).
    func lend(mediaChannels: Int, mediaRate: Int, name: String, clock: PlaybackClock, lendsNow: Bool,
              makeFifo: (AudioFormat) -> AudioFifo) -> Loan {
        if !lendsNow, let output, output.canChain {
            return Loan(fifo: makeFifo(output.format), output: output, warning: nil)
        }
        var warning: PlayerWarning? = nil
        var sink: AudioFormat? = nil
        if let soundServer {
            switch soundServer.connect() {
            case .success(let format): sink = format
            case .failure(let error): warning = .noSoundServer(reason: error.detail)
            }
        }
        // The device's own rate and at most its channel count: surround is downmixed here.
        let format = Self.format(sink: sink, mediaChannels: mediaChannels, mediaRate: mediaRate)
        let fifo = makeFifo(format)
        // The silent output takes any format: the follower borrows it when it takes over.
        if !lendsNow, let output { return Loan(fifo: fifo, output: output, warning: warning) }
        if sink != nil, let soundServer {
            do throws(PlayerError) {
                let stream = try lend(from: soundServer, fifo: fifo, clock: clock, name: name)
                return Loan(fifo: fifo, output: stream, warning: warning)
            } catch {
                warning = .soundOutputFailed(reason: error.detail)
            }
        }
        return Loan(fifo: fifo, output: lend(from: silence, fifo: fifo, clock: clock, name: name), warning: warning)
    }

    /// The output held, lent again if `factory` can reuse it for `fifo`'s format; otherwise it
    /// is closed and `factory` makes a new one.
    private func lend<Factory: AudioOutputFactory>(from factory: Factory, fifo: AudioFifo, clock: PlaybackClock,
                                                   name: String) throws(Factory.Failure) -> AudioOutput {
        if let output, factory.canReuse(output, for: fifo.format) {
            output.rename(name)
            output.adopt(fifo, clock: clock)
            return output
        }
        output?.close()
        output = nil
        let made = try factory.make(fifo: fifo, clock: clock, name: name)
        output = made
        return made
    }

    /// The format the device is fed: the sink's rate and at most its channel count; without a
    /// sink, the media's rate and at most stereo.
    static func format(sink: AudioFormat?, mediaChannels: Int, mediaRate: Int) -> AudioFormat {
        guard let sink else { return AudioFormat(sampleRate: mediaRate, channels: min(2, mediaChannels)) }
        return AudioFormat(sampleRate: sink.sampleRate, channels: min(sink.channels, mediaChannels))
    }

    /// Closes the output (the player closes, or goes): the next session opens a new one.
    func close() {
        output?.close()
        output = nil
    }
}
