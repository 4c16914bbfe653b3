import CFFmpeg

/// Where a channel is heard, as far as mixing it into fewer speakers needs to know.
/// Threading: a value type.
enum SpeakerSide: Sendable, Equatable {
    case left, right, center, lowFrequency
    /// A channel with no position (an unspecified layout): placed by its index.
    case unknown
    /// An ambisonic component by its ACN number (0 is W, the omnidirectional one; 1 is Y,
    /// left minus right).
    case ambisonic(Int)

    init(_ channel: AVChannel) {
        if channel.rawValue >= AV_CHAN_AMBISONIC_BASE.rawValue && channel.rawValue <= AV_CHAN_AMBISONIC_END.rawValue {
            self = .ambisonic(Int(channel.rawValue - AV_CHAN_AMBISONIC_BASE.rawValue))
            return
        }
        switch channel {
        case AV_CHAN_FRONT_LEFT, AV_CHAN_BACK_LEFT, AV_CHAN_FRONT_LEFT_OF_CENTER, AV_CHAN_SIDE_LEFT,
             AV_CHAN_TOP_FRONT_LEFT, AV_CHAN_TOP_BACK_LEFT, AV_CHAN_STEREO_LEFT, AV_CHAN_WIDE_LEFT,
             AV_CHAN_SURROUND_DIRECT_LEFT, AV_CHAN_TOP_SIDE_LEFT, AV_CHAN_BOTTOM_FRONT_LEFT:
            self = .left
        case AV_CHAN_FRONT_RIGHT, AV_CHAN_BACK_RIGHT, AV_CHAN_FRONT_RIGHT_OF_CENTER, AV_CHAN_SIDE_RIGHT,
             AV_CHAN_TOP_FRONT_RIGHT, AV_CHAN_TOP_BACK_RIGHT, AV_CHAN_STEREO_RIGHT, AV_CHAN_WIDE_RIGHT,
             AV_CHAN_SURROUND_DIRECT_RIGHT, AV_CHAN_TOP_SIDE_RIGHT, AV_CHAN_BOTTOM_FRONT_RIGHT:
            self = .right
        case AV_CHAN_LOW_FREQUENCY, AV_CHAN_LOW_FREQUENCY_2:
            self = .lowFrequency
        case AV_CHAN_FRONT_CENTER, AV_CHAN_BACK_CENTER, AV_CHAN_TOP_CENTER, AV_CHAN_TOP_FRONT_CENTER,
             AV_CHAN_TOP_BACK_CENTER, AV_CHAN_BOTTOM_FRONT_CENTER:
            self = .center
        default:
            self = .unknown
        }
    }
}

/// A mixing matrix from a source's channels to the device's, for the layouts libswresample
/// cannot mix by itself: 22.2 broadcast sound (FFmpeg 5.1 keeps only its first nine
/// channels), unbalanced native layouts, and the unspecified or ambisonic layouts of
/// many-channel Opus, WAV and field recorders. Every source channel is heard except the
/// low-frequency effects (dropped, as standard downmixes do); a channel whose speaker the
/// device has goes there, others to the front speakers of their side, and channels without a
/// position alternate left and right so that each stays audible. Ambisonic sound is decoded
/// to two cardioids pointing left and right (W ± Y); its height and higher orders are left out.
/// Threading: a value type.
struct DownmixMatrix: Sendable, Equatable {
    /// `gains[output][input]`.
    let gains: [[Double]]

    init(input: [AVChannel], output: [AVChannel]) {
        let inputSides = input.map(SpeakerSide.init)
        let outputSides = output.map(SpeakerSide.init)
        var gains = [[Double]](repeating: [Double](repeating: 0, count: input.count), count: output.count)
        let frontLeft = output.firstIndex(of: AV_CHAN_FRONT_LEFT) ?? outputSides.firstIndex(of: .left)
        let frontRight = output.firstIndex(of: AV_CHAN_FRONT_RIGHT) ?? outputSides.firstIndex(of: .right)
        let center = output.firstIndex(of: AV_CHAN_FRONT_CENTER) ?? outputSides.firstIndex(of: .center)
        let lowFrequency = outputSides.firstIndex(of: .lowFrequency)
        // A device of unknown speakers (or mono): the first channels stand for left and right.
        let left = frontLeft ?? (output.count >= 2 ? 0 : nil)
        let right = frontRight ?? (output.count >= 2 ? 1 : nil)
        let halfPower = 1 / 2.0.squareRoot()
        var unknownIndex = 0

        func spread(_ inputIndex: Int, to side: SpeakerSide) {
            switch side {
            case .left, .right:
                if let target = side == .left ? left : right {
                    gains[target][inputIndex] += 1
                } else if let target = center ?? (output.count == 1 ? 0 : nil) {
                    gains[target][inputIndex] += halfPower
                }
            case .center, .unknown:
                if let center {
                    gains[center][inputIndex] += 1
                } else if let left, let right {
                    gains[left][inputIndex] += halfPower
                    gains[right][inputIndex] += halfPower
                } else if !output.isEmpty {
                    gains[0][inputIndex] += 1
                }
            case .lowFrequency:
                if let lowFrequency { gains[lowFrequency][inputIndex] += 1 }
            case .ambisonic(let component):
                guard component <= 1 else { return }
                // W feeds both cardioids; Y (positive to the left) adds to one, takes from the other.
                let sign = component == 0 ? 1.0 : -1.0
                if let left, let right {
                    gains[left][inputIndex] += 0.5
                    gains[right][inputIndex] += 0.5 * sign
                } else if component == 0, let only = center ?? (output.isEmpty ? nil : 0) {
                    gains[only][inputIndex] += 1
                }
            }
        }

        for (index, channel) in input.enumerated() {
            let side = inputSides[index]
            if case .ambisonic = side {
                spread(index, to: side)
            } else if side != .unknown, let same = output.firstIndex(of: channel) {
                gains[same][index] = 1
            } else if side == .unknown {
                // A lone channel is centred; several alternate so that each stays audible.
                if input.count == 1 {
                    spread(index, to: .center)
                } else {
                    spread(index, to: unknownIndex % 2 == 0 ? .left : .right)
                }
                unknownIndex += 1
            } else {
                spread(index, to: side)
            }
        }
        // One scale for every row (as libswresample normalises): no speaker is driven past full
        // scale by channels at full scale, and the balance between speakers stays.
        let loudest = gains.map { $0.reduce(0) { $0 + abs($1) } }.max() ?? 0
        if loudest > 1 {
            gains = gains.map { $0.map { $0 / loudest } }
        }
        self.gains = gains
    }

    /// The channels of `layout` in order (`AV_CHAN_NONE`-like unknowns for unspecified ones).
    static func channels(of layout: UnsafePointer<AVChannelLayout>) -> [AVChannel] {
        (0..<Int(layout.pointee.nb_channels)).map { index in
            layout.pointee.order == AV_CHANNEL_ORDER_UNSPEC
                ? AV_CHAN_UNUSED
                : av_channel_layout_channel_from_index(layout, UInt32(index))
        }
    }
}
