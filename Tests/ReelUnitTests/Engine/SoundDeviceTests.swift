import Foundation
@testable import ReelEngine
import Testing

/// The player's one sound output lent to one session after another, with the silent output (no
/// sound server needed): which FIFO it reads, in which format, and that it takes samples from
/// the borrower's FIFO only.
@Suite("Sound device lending")
struct SoundDeviceTests {
    private func device() -> SoundDevice {
        var configuration = PlayerConfiguration()
        configuration.audioOutput = .null
        return SoundDevice(configuration: configuration)
    }

    /// A FIFO holding `seconds` of silence at media time 0 (serial 0, as a fresh one).
    private func filled(_ fifo: AudioFifo, seconds: Double) -> AudioFifo {
        let frames = Int(Double(fifo.format.sampleRate) * seconds)
        let samples = [Float](repeating: 0, count: frames * fifo.format.channels)
        samples.withUnsafeBufferPointer { fifo.append($0.baseAddress!, frames: frames, pts: 0, serial: 0) }
        return fifo
    }

    private func lend(_ device: SoundDevice, channels: Int, rate: Int, now: Bool = true,
                      clock: PlaybackClock = PlaybackClock(pacing: FreewheelPacing())) -> SoundDevice.Loan {
        device.lend(mediaChannels: channels, mediaRate: rate, name: "media", clock: clock, lendsNow: now) {
            AudioFifo(format: $0) { _ in }
        }
    }

    @Test("Each new session borrows the same output, which reads its FIFO alone, in its format")
    func oneOutputForEverySession() {
        let device = device()
        defer { device.close() }
        let first = lend(device, channels: 6, rate: 44100)
        #expect(first.fifo.format == AudioFormat(sampleRate: 44100, channels: 2), "silence downmixes to stereo")
        #expect(first.output.isReading(first.fifo))
        let second = lend(device, channels: 1, rate: 48000)
        #expect(second.output === first.output, "a second output was made")
        #expect(second.output.format == AudioFormat(sampleRate: 48000, channels: 1))
        #expect(second.output.isReading(second.fifo))
        #expect(!second.output.isReading(first.fifo), "the replaced session still counts as the borrower")
        #expect(first.warning == nil && second.warning == nil)
    }

    @Test("A follower prepared while another session borrows gets the output but borrows it only when it takes over")
    func followerBorrowsOnTakingOver() {
        let device = device()
        defer { device.close() }
        let playing = lend(device, channels: 2, rate: 48000)
        let clock = PlaybackClock(pacing: FreewheelPacing())
        let follower = lend(device, channels: 2, rate: 48000, now: false, clock: clock)
        #expect(follower.output === playing.output)
        #expect(playing.output.isReading(playing.fifo), "preparing a follower took the output")
        #expect(!follower.output.isReading(follower.fifo))
        follower.output.adopt(follower.fifo, clock: clock)
        #expect(follower.output.isReading(follower.fifo))
        #expect(!follower.output.isReading(playing.fifo))
    }

    @Test("Started, the lent output takes the borrower's samples and leaves those of the session it was lent to before")
    func takesFromTheBorrowerOnly() throws {
        let device = device()
        defer { device.close() }
        let before = lend(device, channels: 2, rate: 48000)
        _ = filled(before.fifo, seconds: 0.5)
        let now = lend(device, channels: 2, rate: 48000)
        _ = filled(now.fifo, seconds: 0.5)
        now.output.start()
        let deadline = Date(timeIntervalSinceNow: 10)
        while now.fifo.unreadSeconds > 0, Date() < deadline { usleep(1000) }
        #expect(now.fifo.unreadSeconds == 0, "the borrower's samples were not taken")
        #expect(before.fifo.unreadSeconds > 0.4, "samples were taken from a FIFO no longer lent")
    }
}
