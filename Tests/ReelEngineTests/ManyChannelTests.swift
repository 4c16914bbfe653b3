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

    // Each file plays in real time into a sink of its own, so they play at once.
    @Test("Heard through PulseAudio: every channel's tone in the stereo downmix, and no LFE (every file at once)")
    func heard() throws {
        let fixtures = ManyChannelFixture.all
        let recordings = AtOnce.map(fixtures) { fixture in try Self.recordPlayback(of: try Fixtures.path(fixture.spec)) }
        for (fixture, recording) in zip(fixtures, recordings) {
            do {
                try Self.judge(fixture, try recording.get())
            } catch {
                Issue.record("\(fixture): \(error)")
            }
        }
    }

    static func judge(_ fixture: ManyChannelFixture, _ stereo: [Int16]) throws {
        let analysis = try ToneAnalysis(stereo: stereo, rate: 48000)
        let audible = fixture.audibleFrequencies.map { analysis.amplitude(at: $0) }
        let median = audible.sorted()[audible.count / 2]
        #expect(median > 100, "\(fixture): nothing was heard: \(analysis)")
        for (frequency, amplitude) in zip(fixture.audibleFrequencies, audible) {
            #expect(amplitude > median / 6, "\(Int(frequency)) Hz (\(fixture)'s channel) is missing: amplitude \(Int(amplitude)) against a median of \(Int(median))")
        }
        for frequency in fixture.silentFrequencies {
            let amplitude = analysis.amplitude(at: frequency)
            #expect(amplitude < median / 20, "\(fixture): \(Int(frequency)) Hz should not be heard: amplitude \(Int(amplitude))")
        }
        // Between the tones (25 Hz off each) there is nothing: a mixing fault would smear.
        let between = fixture.audibleFrequencies.map { analysis.amplitude(at: $0 + 25) }.max() ?? 0
        #expect(between < median / 10, "\(fixture): noise between the tones: \(Int(between)) against \(Int(median))")
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
    /// too busy to feed it) is recorded again. Threading: any thread (several at once).
    static func recordPlayback(of path: String, speakers: [String]? = nil) throws -> [Int16] {
        let map = speakers?.joined(separator: ",")
        for _ in 0..<3 {
            let sink = try PrivateSink.borrow(channelMap: map)
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
        throw DeviceRanDry()
    }

    struct DeviceRanDry: Error, CustomStringConvertible {
        var description: String { "the sound device ran dry in three runs: the machine is too busy to judge the sound" }
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

/// The resampler itself, layout by layout, without files or threads: a steady signal on one
/// channel at a time must come out of the stereo downmix unless that channel is an LFE (or an
/// ambisonic component a stereo decode leaves out). Every layout FFmpeg names, including the
/// ones libswresample mixes itself (its matrix is checked to hear every channel) and the ones
/// it cannot; and one resampler taking them all in turn, as a stream whose layout keeps
/// changing does (damaged AC-3 switching from mono to 4.1 once corrupted the heap here).
@Suite("Resampler layouts")
struct ResamplerLayoutTests {
    static let named = ["mono", "stereo", "2.1", "3.0", "3.0(back)", "4.0", "quad", "quad(side)", "3.1", "5.0",
                        "5.0(side)", "4.1", "5.1", "5.1(side)", "6.0", "6.0(front)", "hexagonal", "6.1", "6.1(back)",
                        "6.1(front)", "7.0", "7.0(front)", "7.1", "7.1(wide)", "7.1(wide-side)", "octagonal",
                        "hexadecagonal", "downmix", "22.2", "FL+FR+FC+LFE+BL+BR+SL+SR+TFL+TFR", "ambisonic 1",
                        "ambisonic 3"]

    /// A layout by FFmpeg's name, or `count` channels without positions.
    static func layout(_ name: String?, count: Int = 0) -> AVChannelLayout {
        var layout = AVChannelLayout()
        if let name {
            #expect(av_channel_layout_from_string(&layout, name) == 0, "FFmpeg does not know \(name)")
        } else {
            layout.order = AV_CHANNEL_ORDER_UNSPEC
            layout.nb_channels = Int32(count)
        }
        return layout
    }

    /// 1024 samples of planar float at 48 kHz: 0.5 on `channel`, silence on the others.
    static func frame(_ layout: AVChannelLayout, signalOn channel: Int) throws -> Frame {
        let frame = Frame()
        let f = frame.pointer
        var copy = layout
        f.pointee.format = AV_SAMPLE_FMT_FLTP.rawValue
        f.pointee.sample_rate = 48000
        f.pointee.nb_samples = 1024
        try #require(av_channel_layout_copy(&f.pointee.ch_layout, &copy) == 0)
        try #require(av_frame_get_buffer(f, 0) == 0)
        let planes = try #require(f.pointee.extended_data)
        for c in 0..<Int(layout.nb_channels) {
            let samples = UnsafeMutableRawPointer(try #require(planes[c])).assumingMemoryBound(to: Float.self)
            samples.update(repeating: c == channel ? 0.5 : 0, count: 1024)
        }
        return frame
    }

    static var all: [(name: String, layout: AVChannelLayout)] {
        named.map { ($0, layout($0)) } + [10, 16, 24, 64].map { ("\($0) unlabelled", layout(nil, count: $0)) }
    }

    @Test("Every channel of every layout is heard in stereo, but the LFEs (and ambisonic height and depth)")
    func everyChannelHeard() throws {
        for (name, layout) in Self.all {
            for channel in 0..<Int(layout.nb_channels) {
                var copy = layout
                let position = layout.order == AV_CHANNEL_ORDER_UNSPEC
                    ? AV_CHAN_UNUSED : av_channel_layout_channel_from_index(&copy, UInt32(channel))
                let resampler = Resampler(output: AudioFormat(sampleRate: 48000, channels: 2))
                let count = try resampler.convert(try Self.frame(layout, signalOn: channel))
                try #require(count > 512, "\(name): only \(count) frames out")
                // The last output frame: steady by then.
                let left = resampler.buffer[2 * (count - 1)], right = resampler.buffer[2 * (count - 1) + 1]
                let heard = abs(left) + abs(right)
                let side = SpeakerSide(position)
                let silent = side == .lowFrequency || {
                    if case .ambisonic(let component) = side { return component > 1 }
                    return false
                }()
                if silent {
                    #expect(heard < 0.001, "\(name) channel \(channel) should not be heard: \(heard)")
                } else {
                    // At least its share of full scale: the mix is scaled down only as far as
                    // all channels at full scale together need.
                    #expect(Double(heard) >= 0.5 / Double(layout.nb_channels) * 0.99, "\(name) channel \(channel) is not heard: \(heard)")
                }
                #expect(abs(left) <= 0.5001 && abs(right) <= 0.5001, "\(name) channel \(channel) is louder than it came in")
            }
        }
    }

    @Test("One resampler takes every layout in turn, as a stream whose layout keeps changing")
    func layoutChangesInOneStream() throws {
        let resampler = Resampler(output: AudioFormat(sampleRate: 48000, channels: 2))
        var total = 0
        for _ in 0..<3 {
            for (name, layout) in Self.all {
                let count = try resampler.convert(try Self.frame(layout, signalOn: 0))
                #expect(count > 0, "\(name): nothing out")
                total += count
            }
        }
        total += try resampler.convert(nil)
        // Nothing lost at the changes: every input sample came out (the filter's delay drained).
        #expect(total == 3 * Self.all.count * 1024)
    }

    @Test("More channels than libswresample takes is a clear error, not a crash")
    func tooManyChannels() throws {
        let resampler = Resampler(output: AudioFormat(sampleRate: 48000, channels: 2))
        let layout = Self.layout(nil, count: 65)
        #expect(throws: PlayerError.self) { try resampler.convert(try Self.frame(layout, signalOn: 0)) }
    }
}
