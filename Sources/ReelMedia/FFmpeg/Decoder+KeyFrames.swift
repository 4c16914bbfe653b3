import CFFmpeg

extension Decoder {
    /// While set, only key frames are decoded; every other packet is skipped unread, which is
    /// what makes a thumbnail cost one picture's decode.
    package var decodesKeyFramesOnly: Bool {
        get { context.pointee.skip_frame == AVDISCARD_NONKEY }
        set { context.pointee.skip_frame = newValue ? AVDISCARD_NONKEY : AVDISCARD_DEFAULT }
    }
}
