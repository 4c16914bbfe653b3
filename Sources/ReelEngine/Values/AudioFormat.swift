/// The PCM format the engine hands to audio devices: 32-bit float, interleaved.
/// Threading: a value type.
public struct AudioFormat: Sendable, Equatable, CustomStringConvertible {
    public var sampleRate: Int
    public var channels: Int

    public init(sampleRate: Int, channels: Int) {
        self.sampleRate = sampleRate
        self.channels = channels
    }

    public var bytesPerFrame: Int { channels * MemoryLayout<Float>.size }
    public var description: String { "float32 \(channels)ch \(sampleRate) Hz" }

    static let fallback = AudioFormat(sampleRate: 48_000, channels: 2)
}
