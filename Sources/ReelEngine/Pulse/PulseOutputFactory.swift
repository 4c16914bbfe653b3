/// Sound server streams (PulseAudio, or PipeWire's Pulse server) for the player's
/// `SoundDevice`: finds the server, and makes a stream on the configured sink. A stream is lent
/// again while it is the one made last, on the connection found now, in the format the device
/// must be fed, and still usable; otherwise a new one is made (a new sink rate, a server that
/// went away and came back).
/// Threading: control thread only, like the device.
final class PulseOutputFactory: AudioOutputFactory {
    /// The server's address (libpulse's form); nil: libpulse's own choice.
    private let server: String?
    /// The sink to play on by name; nil: the server's default.
    private let device: String?
    /// The connection the last `connect` found.
    private var connection: PulseConnection?
    /// The stream made last; the device holds it, and closes it when it takes another.
    private weak var made: PulseAudioOutput?

    init(server: String?, device: String?) {
        self.server = server
        self.device = device
    }

    /// Connects (or finds the connection still good) and says the format the sink plays, or
    /// why no sound server answers.
    func connect() -> Result<AudioFormat, PlayerError> {
        switch PulseConnection.shared(server: server) {
        case .success(let found):
            connection = found
            return .success(found.sinkFormat(of: device))
        case .failure(let error):
            connection = nil
            return .failure(error)
        }
    }

    func canReuse(_ output: AudioOutput, for format: AudioFormat) -> Bool {
        guard let made, made === output, let connection else { return false }
        return made.connection === connection && made.format == format && made.isUsable
    }

    func make(fifo: AudioFifo, clock: PlaybackClock, name: String) throws(PlayerError) -> AudioOutput {
        guard let connection else { throw .internalError("no sound server connected") }
        let stream = try PulseAudioOutput(connection: connection, fifo: fifo, name: name, device: device)
        made = stream
        return stream
    }
}
