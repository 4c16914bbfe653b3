import Foundation

/// Sound with more channels than a stereo or 7.1 device has: a tone of its own on every
/// channel (310 Hz, 360 Hz, ... 50 Hz apart, no tone a harmonic of another), so that a
/// recording of the downmix shows which channels were heard.
/// Threading: values.
public struct ManyChannelFixture: Sendable, CustomStringConvertible {
    public let spec: Fixtures.Spec
    /// FFmpeg's channel names in order ("FL", "LFE", ...), or nil for channels without a position.
    public let channels: [String?]
    public let seconds: Double

    public var description: String { spec.name }

    public static func frequency(ofChannel index: Int) -> Double { 310 + 50 * Double(index) }

    /// The tones a downmix must let through: every channel's but the low-frequency effects'
    /// (which standard downmixes leave out), and for ambisonic sound W and Y alone (the
    /// left-right picture; height and depth have no place in stereo).
    public var audibleFrequencies: [Double] {
        channels.indices.filter { isAudible($0) }.map(Self.frequency(ofChannel:))
    }

    public var silentFrequencies: [Double] {
        channels.indices.filter { !isAudible($0) }.map(Self.frequency(ofChannel:))
    }

    private func isAudible(_ index: Int) -> Bool {
        if spec.name.contains("ambisonic") { return index <= 1 }
        return !["LFE", "LFE2"].contains(channels[index] ?? "")
    }

    /// `layout` is a list of FFmpeg channel names joined with "+", or a count for channels
    /// without positions.
    static func make(_ name: String, ext: String, layout: String, seconds: Double = 1, codec: [String]) -> Self {
        let names: [String?]
        if let count = Int(layout) {
            names = Array(repeating: nil, count: count)
        } else {
            names = layout.split(separator: "+").map(String.init)
        }
        var args: [String] = []
        for index in names.indices {
            args += ["-f", "lavfi", "-i",
                     "sine=frequency=\(Int(frequency(ofChannel: index))):sample_rate=48000:duration=\(seconds)"]
        }
        let inputs = names.indices.map { "[\($0):a]" }.joined()
        let graph: String
        if names.first! == nil {
            // Mono inputs merged: the channels keep no positions.
            graph = "\(inputs)amerge=inputs=\(names.count)[a]"
        } else {
            let map = names.enumerated().map { "\($0.offset).0-\($0.element!)" }.joined(separator: "|")
            graph = "\(inputs)join=inputs=\(names.count):channel_layout=\(layout):map=\(map)[a]"
        }
        args += ["-filter_complex", graph, "-map", "[a]"] + codec
        return .init(spec: .init(name: name, ext: ext, arguments: args), channels: names, seconds: seconds)
    }

    /// 7.1 with two height speakers: WAV keeps these positions (its channel mask has bits for
    /// the eighteen classic speakers only, so 22.2 or wide speakers are written without
    /// positions, and no container FFmpeg 5.1 writes keeps them either).
    static let tenChannelLayout = "FL+FR+FC+LFE+BL+BR+SL+SR+TFL+TFR"

    /// FFmpeg 5.1's AAC encoder writes at most 16 channels (its channel configurations end at
    /// 16) and FLAC at most 8 (the format's own limit): those take the largest they allow.
    /// Channels merged from mono tones keep no positions in any container here.
    public static let all: [Self] = [
        make("mc-aac16-ts", ext: "ts", layout: "16", codec: ["-c:a", "aac", "-b:a", "512k"]),
        make("mc-aac16-mp4", ext: "mp4", layout: "16", codec: ["-c:a", "aac", "-b:a", "512k"]),
        make("mc-opus10", ext: "ogg", layout: "10", codec: ["-c:a", "libopus", "-mapping_family", "255"]),
        make("mc-opus16", ext: "ogg", layout: "16", codec: ["-c:a", "libopus", "-mapping_family", "255"]),
        make("mc-opus24", ext: "ogg", layout: "24", codec: ["-c:a", "libopus", "-mapping_family", "255"]),
        make("mc-opus16-ambisonic", ext: "ogg", layout: "16", codec: ["-c:a", "libopus", "-mapping_family", "2"]),
        make("mc-flac8", ext: "flac", layout: "FL+FR+FC+LFE+BL+BR+SL+SR", codec: ["-c:a", "flac"]),
        make("mc-wav10", ext: "wav", layout: tenChannelLayout, codec: ["-c:a", "pcm_s16le"]),
        make("mc-wav16", ext: "wav", layout: "16", codec: ["-c:a", "pcm_s16le"]),
        make("mc-wav24", ext: "wav", layout: "24", codec: ["-c:a", "pcm_s16le"]),
        make("mc-mkv24-pcm", ext: "mkv", layout: "24", codec: ["-c:a", "pcm_f32le"]),
    ]
}
