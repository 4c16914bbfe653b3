import CFFmpeg

/// The speakers the engine writes for: FFmpeg's standard layout for the device's channel
/// count (stereo, 5.1, 7.1, ...), the one the resampler mixes to, the tempo filter is
/// configured with and the sound server is told (PulseChannelMap), so all three agree on
/// which channel is which. Threading: a value type.
extension AudioFormat {
    func withChannelLayout<T, E: Error>(_ body: (UnsafePointer<AVChannelLayout>) throws(E) -> T) throws(E) -> T {
        var layout = AVChannelLayout()
        av_channel_layout_default(&layout, Int32(channels))
        defer { av_channel_layout_uninit(&layout) }
        return try body(&layout)
    }

    /// The layout as FFmpeg's filters parse it ("stereo", "5.1", "7.1", "3 channels").
    var channelLayoutName: String {
        withChannelLayout { layout in
            layout.pointee.order == AV_CHANNEL_ORDER_NATIVE ? ChannelLayoutName.describe(layout) : "\(channels)c"
        }
    }

    /// The speaker of each channel, in order.
    var speakers: [AVChannel] { withChannelLayout { DownmixMatrix.channels(of: $0) } }
}
