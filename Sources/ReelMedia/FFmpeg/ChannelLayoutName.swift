import CFFmpeg

/// FFmpeg's name of a channel layout. Threading: stateless.
package enum ChannelLayoutName {
    package static func describe(_ layout: UnsafePointer<AVChannelLayout>) -> String {
        var text = [CChar](repeating: 0, count: 256)
        _ = av_channel_layout_describe(layout, &text, text.count)
        return text.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }
}
