import CFFmpeg
import Foundation
@testable import ReelEngine
import ReelTestSupport
import Testing

/// Sound with more channels than the device: 10, 16 and 24 channels in AAC, Opus, FLAC, WAV and
/// Matroska, each channel a tone of its own. Planar audio keeps a plane per channel and an
/// AVFrame's `data` holds only eight, so these files once crashed the audio thread; and
/// libswresample has no downmix for most of these layouts. Played to the end through a real
/// PulseAudio null sink, the recorded stereo must hold every channel's tone (but the
/// low-frequency effects') and no other.
@Suite("Many-channel sound", .serialized)
struct ManyChannelTests {
    // MARK: The downmix matrix, as a plain value

    static func channels(_ names: String) -> [AVChannel] {
        names.split(separator: "+").map { av_channel_from_string(String($0)) }
    }

    @Test("22.2 to stereo: every speaker but the two LFEs reaches a front speaker, no row over full scale")
    func matrix22_2() {
        let input = Self.channels("FL+FR+FC+LFE+BL+BR+FLC+FRC+BC+SL+SR+TC+TFL+TFC+TFR+TBL+TBC+TBR+LFE2+TSL+TSR+BFC+BFL+BFR")
        let matrix = DownmixMatrix(input: input, output: Self.channels("FL+FR"))
        for (index, channel) in input.enumerated() {
            let reach = matrix.gains[0][index] + matrix.gains[1][index]
            if channel == AV_CHAN_LOW_FREQUENCY || channel == AV_CHAN_LOW_FREQUENCY_2 {
                #expect(reach == 0, "LFE channel \(index) is mixed in")
            } else {
                #expect(reach > 0, "channel \(index) is not heard")
            }
        }
        #expect(matrix.gains[0][0] > 0 && matrix.gains[1][0] == 0, "front left must stay left")
        #expect(matrix.gains[1][1] > 0 && matrix.gains[0][1] == 0, "front right must stay right")
        #expect(matrix.gains[0][2] == matrix.gains[1][2], "the centre must be in the middle")
        for row in matrix.gains { #expect(row.reduce(0, +) <= 1.000001) }
    }

    @Test("Channels without positions alternate left and right; a device's own speakers keep their channel")
    func matrixUnknownAndSameSpeaker() {
        let unknown = [AVChannel](repeating: AV_CHAN_UNUSED, count: 10)
        let stereo = DownmixMatrix(input: unknown, output: Self.channels("FL+FR"))
        for index in 0..<10 {
            #expect(stereo.gains[index % 2][index] > 0 && stereo.gains[1 - index % 2][index] == 0)
        }
        let surround = DownmixMatrix(input: Self.channels("FL+FR+FC+LFE+BL+BR+SL+SR+TFL+TFR"),
                                     output: Self.channels("FL+FR+FC+LFE+BL+BR"))
        // FL, FR, FC, LFE, BL, BR go to their own speakers; SL, TFL to the front left.
        for index in 0..<6 { #expect(surround.gains[index][index] > 0) }
        #expect(surround.gains[0][6] > 0 && surround.gains[0][8] > 0)
        #expect(surround.gains[3][3] > 0, "a device with a subwoofer gets the LFE")
        let mono = DownmixMatrix(input: unknown, output: Self.channels("FC"))
        #expect(mono.gains[0].allSatisfy { $0 > 0 })
    }

    @Test("Ambisonic sound is decoded to two cardioids: W in both, Y to the left, nothing else")
    func matrixAmbisonic() {
        let input = (0..<16).map { AVChannel(rawValue: AV_CHAN_AMBISONIC_BASE.rawValue + Int32($0)) }
        let matrix = DownmixMatrix(input: input, output: Self.channels("FL+FR"))
        #expect(matrix.gains[0][0] == matrix.gains[1][0] && matrix.gains[0][0] > 0)
        #expect(matrix.gains[0][1] > 0 && matrix.gains[1][1] == -matrix.gains[0][1])
        for index in 2..<16 { #expect(matrix.gains[0][index] == 0 && matrix.gains[1][index] == 0) }
    }

    // MARK: Real files

    @Test("reel-tool plays every many-channel file to the end (no sound device, as fast as it decodes)",
          arguments: ManyChannelFixture.all)
    func toolPlaysToTheEnd(_ fixture: ManyChannelFixture) throws {
        let path = try Fixtures.path(fixture.spec)
        let result = try ReelToolTests.tool(["play", path, "--max-speed", "--audio", "null", "--json"])
        #expect(result.status == 0, "exit \(result.status): \(result.errors.suffix(2000))")
        let summary = try #require(result.output.split(separator: "\n").last)
        let json = try ReelToolTests.json(summary)
        #expect(json["outcome"] as? String == "ended")
        #expect(json["decode_errors"] as? Int == 0)
    }

    @Test("Heard through PulseAudio: every channel's tone in the stereo downmix, and no LFE",
          arguments: ManyChannelFixture.all)
    func heard(_ fixture: ManyChannelFixture) throws {
        let path = try Fixtures.path(fixture.spec)
        let stereo = try Self.recordPlayback(of: path)
        guard !stereo.isEmpty else { return }
        let analysis = try ToneAnalysis(stereo: stereo, rate: 48000)
        let audible = fixture.audibleFrequencies.map { analysis.amplitude(at: $0) }
        let median = audible.sorted()[audible.count / 2]
        #expect(median > 100, "nothing was heard: \(analysis)")
        for (frequency, amplitude) in zip(fixture.audibleFrequencies, audible) {
            #expect(amplitude > median / 6, "\(Int(frequency)) Hz (\(fixture)'s channel) is missing: amplitude \(Int(amplitude)) against a median of \(Int(median))")
        }
        for frequency in fixture.silentFrequencies {
            let amplitude = analysis.amplitude(at: frequency)
            #expect(amplitude < median / 20, "\(Int(frequency)) Hz should not be heard: amplitude \(Int(amplitude))")
        }
        // Between the tones (25 Hz off each) there is nothing: a mixing fault would smear.
        let between = fixture.audibleFrequencies.map { analysis.amplitude(at: $0 + 25) }.max() ?? 0
        #expect(between < median / 10, "noise between the tones: \(Int(between)) against \(Int(median))")
        print("\(fixture): \(fixture.audibleFrequencies.count) tones heard, median amplitude \(Int(median)), loudest between \(Int(between))")
    }

    @Test("A 5.1 device hears each speaker's channel from its own speaker, in the sound server's order")
    func surroundDeviceKeepsSpeakers() throws {
        // PulseAudio's channel order for this sink differs from FFmpeg's 5.1 order on purpose:
        // only a channel map built from the engine's layout puts each channel where it belongs.
        let speakers = ["front-left", "front-right", "rear-left", "rear-right", "front-center", "lfe"]
        // The 7.1 fixture's channels: FL FR FC LFE BL BR SL SR, tones 310, 360, ... 660 Hz.
        let expected = ["front-left": 310.0, "front-right": 360, "front-center": 410, "lfe": 460,
                        "rear-left": 510, "rear-right": 560]
        let fixture = try #require(ManyChannelFixture.all.first { $0.spec.name == "mc-flac8" })
        let recording = try Self.recordPlayback(of: try Fixtures.path(fixture.spec), speakers: speakers)
        guard !recording.isEmpty else { return }
        let analysis = try ToneAnalysis(interleaved: recording, channels: speakers.count, rate: 48000)
        for (index, speaker) in speakers.enumerated() {
            let own = try #require(expected[speaker])
            let level = analysis.amplitude(at: own, channel: index)
            #expect(level > 500, "\(speaker) does not play its own channel's \(Int(own)) Hz: \(Int(level))")
            for (other, frequency) in expected where other != speaker {
                let leak = analysis.amplitude(at: frequency, channel: index)
                #expect(leak < level / 10, "\(speaker) plays \(other)'s \(Int(frequency)) Hz at \(Int(leak))")
            }
        }
        // The side speakers the device lacks are folded into the rear ones.
        #expect(analysis.amplitude(at: 610, channel: 2) > 200, "the left side speaker is not in the rear left")
        #expect(analysis.amplitude(at: 660, channel: 3) > 200, "the right side speaker is not in the rear right")
    }

    /// Plays `path` to its end on a private null sink and returns the monitor's recording
    /// (stereo, or one channel per speaker named). A run in which the device ran dry (a machine
    /// too busy to feed it) is recorded again.
    static func recordPlayback(of path: String, speakers: [String]? = nil) throws -> [Int16] {
        let map = speakers?.joined(separator: ",")
        for _ in 0..<3 {
            let sink = try PrivateSink("reel_channels_\(getpid())_\(UInt32.random(in: 0...UInt32.max))", channelMap: map)
            defer { sink.stop() }
            let raw = FileManager.default.temporaryDirectory.appendingPathComponent("\(sink.name).raw").path
            defer { unlink(raw) }
            let recorder = try sink.record(to: raw, channels: 2, channelMap: map)
            var underruns = 0
            do {
                let test = TestPlayer(audio: .pulse) { $0.audioDevice = sink.name }
                defer { test.player.close() }
                try test.open(path)
                let mark = test.recorder.count
                test.player.play()
                try test.waitFor(from: mark, "the end") { if case .playedToEnd = $0 { return true }; return false }
                underruns = test.player.statistics.audioUnderruns
            }
            let samples = try sink.finish(recorder: recorder, path: raw)
            if underruns == 0 { return samples }
            print("the sound device ran dry \(underruns) times (a busy machine): recording again")
        }
        Issue.record("the sound device ran dry in three runs: the machine is too busy to judge the sound")
        return []
    }
}

/// Tone amplitudes in a stereo recording, by Goertzel's single-frequency DFT over the steady
/// middle of the loud part (each channel on its own, the louder taken: ambisonic Y is in the
/// two channels with opposite signs, and would cancel in a mono mix).
struct ToneAnalysis: CustomStringConvertible {
    let channels: [[Double]]
    let rate: Double

    init(stereo: [Int16], rate: Double) throws {
        try self.init(interleaved: stereo, channels: 2, rate: rate)
    }

    init(interleaved: [Int16], channels count: Int, rate: Double) throws {
        let frames = interleaved.count / count
        var loud: [Int] = []
        for frame in 0..<frames where (0..<count).contains(where: { abs(Int(interleaved[count * frame + $0])) > 200 }) {
            loud.append(frame)
        }
        guard let first = loud.first, let last = loud.last else {
            throw AnalysisError(message: "the recording is silent (\(frames) frames)")
        }
        // One second from the middle of the sound: whole hertz fit it exactly.
        let middle = (first + last) / 2
        let span = min(Int(rate), last - first - Int(rate / 5))
        guard span > Int(rate / 4) else { throw AnalysisError(message: "only \(last - first) frames of sound") }
        let start = middle - span / 2
        channels = (0..<count).map { channel in
            (start..<(start + span)).map { Double(interleaved[count * $0 + channel]) }
        }
        self.rate = rate
    }

    struct AnalysisError: Error, CustomStringConvertible { let message: String; var description: String { message } }

    /// The tone's amplitude in the channel where it is loudest.
    func amplitude(at frequency: Double) -> Double {
        channels.indices.map { amplitude(at: frequency, channel: $0) }.max() ?? 0
    }

    func amplitude(at frequency: Double, channel: Int) -> Double {
        Self.goertzel(channels[channel], frequency: frequency, rate: rate)
    }

    static func goertzel(_ samples: [Double], frequency: Double, rate: Double) -> Double {
        let coefficient = 2 * cos(2 * .pi * frequency / rate)
        var s1 = 0.0, s2 = 0.0
        for sample in samples {
            let s0 = sample + coefficient * s1 - s2
            s2 = s1
            s1 = s0
        }
        let power = s1 * s1 + s2 * s2 - coefficient * s1 * s2
        return 2 * power.squareRoot() / Double(samples.count)
    }

    var description: String { "\(channels.first?.count ?? 0) frames analysed in \(channels.count) channels" }
}
