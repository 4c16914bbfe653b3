import CFFmpeg
import CPulse

/// The sound server's name for each channel the engine writes, taken from the same layout the
/// resampler mixes to (`AudioFormat.speakers`). PulseAudio's own default map for a count is
/// ordered differently from FFmpeg's (its six-channel default puts the side speakers second),
/// so a 5.1 device told "default" would play the centre from the left surround.
/// Threading: a value type, built on any thread.
enum PulseChannelMap {
    static func make(for format: AudioFormat) -> pa_channel_map {
        var map = pa_channel_map()
        let speakers = format.speakers
        map.channels = UInt8(speakers.count)
        withUnsafeMutableBytes(of: &map.map) { raw in
            let positions = raw.bindMemory(to: pa_channel_position_t.self)
            var aux: Int32 = 0
            for (index, speaker) in speakers.enumerated() where index < positions.count {
                if let known = position(of: speaker) {
                    positions[index] = known
                } else {
                    positions[index] = pa_channel_position_t(PA_CHANNEL_POSITION_AUX0.rawValue + aux)
                    aux += 1
                }
            }
        }
        return map
    }

    private static func position(of speaker: AVChannel) -> pa_channel_position_t? {
        switch speaker {
        case AV_CHAN_FRONT_LEFT: PA_CHANNEL_POSITION_FRONT_LEFT
        case AV_CHAN_FRONT_RIGHT: PA_CHANNEL_POSITION_FRONT_RIGHT
        case AV_CHAN_FRONT_CENTER: PA_CHANNEL_POSITION_FRONT_CENTER
        case AV_CHAN_LOW_FREQUENCY: PA_CHANNEL_POSITION_LFE
        case AV_CHAN_BACK_LEFT: PA_CHANNEL_POSITION_REAR_LEFT
        case AV_CHAN_BACK_RIGHT: PA_CHANNEL_POSITION_REAR_RIGHT
        case AV_CHAN_FRONT_LEFT_OF_CENTER: PA_CHANNEL_POSITION_FRONT_LEFT_OF_CENTER
        case AV_CHAN_FRONT_RIGHT_OF_CENTER: PA_CHANNEL_POSITION_FRONT_RIGHT_OF_CENTER
        case AV_CHAN_BACK_CENTER: PA_CHANNEL_POSITION_REAR_CENTER
        case AV_CHAN_SIDE_LEFT: PA_CHANNEL_POSITION_SIDE_LEFT
        case AV_CHAN_SIDE_RIGHT: PA_CHANNEL_POSITION_SIDE_RIGHT
        case AV_CHAN_TOP_CENTER: PA_CHANNEL_POSITION_TOP_CENTER
        case AV_CHAN_TOP_FRONT_LEFT: PA_CHANNEL_POSITION_TOP_FRONT_LEFT
        case AV_CHAN_TOP_FRONT_CENTER: PA_CHANNEL_POSITION_TOP_FRONT_CENTER
        case AV_CHAN_TOP_FRONT_RIGHT: PA_CHANNEL_POSITION_TOP_FRONT_RIGHT
        case AV_CHAN_TOP_BACK_LEFT: PA_CHANNEL_POSITION_TOP_REAR_LEFT
        case AV_CHAN_TOP_BACK_CENTER: PA_CHANNEL_POSITION_TOP_REAR_CENTER
        case AV_CHAN_TOP_BACK_RIGHT: PA_CHANNEL_POSITION_TOP_REAR_RIGHT
        default: nil
        }
    }
}
