import CFFmpeg

/// An owned AVFrame (reference-counted buffers). Threading: one owner at a time; once handed
/// to `VideoFrame` it is only read, and FFmpeg's buffer references are thread-safe.
package final class Frame: @unchecked Sendable {
    // Safe: single writer (the decoder) before publication, read-only afterwards.
    package let pointer: UnsafeMutablePointer<AVFrame>

    package init() {
        guard let f = av_frame_alloc() else { fatalError("av_frame_alloc: out of memory") }
        pointer = f
    }

    deinit {
        var f: UnsafeMutablePointer<AVFrame>? = pointer
        av_frame_free(&f)
    }

    /// Moves the contents of `other` into a new frame, leaving `other` empty for reuse.
    package static func takingContents(of other: Frame) -> Frame {
        let frame = Frame()
        av_frame_move_ref(frame.pointer, other.pointer)
        return frame
    }

    package func unref() { av_frame_unref(pointer) }

    /// A new reference to the same buffers that starts at `rect` (whole pixels; FFmpeg keeps
    /// chroma whole by rounding the origin down for subsampled layouts), for libswscale, which
    /// converts whole frames only.
    package func cropped(to rect: PixelRect) throws(PlayerError) -> Frame {
        let copy = Frame()
        guard av_frame_ref(copy.pointer, pointer) >= 0 else { throw .internalError("cannot reference a picture") }
        let f = copy.pointer
        f.pointee.crop_left = rect.x
        f.pointee.crop_top = rect.y
        f.pointee.crop_right = Int(f.pointee.width) - rect.x - rect.width
        f.pointee.crop_bottom = Int(f.pointee.height) - rect.y - rect.height
        guard av_frame_apply_cropping(f, Int32(AV_FRAME_CROP_UNALIGNED)) >= 0 else { throw .internalError("cannot crop a picture") }
        return copy
    }

    /// The presentation timestamp FFmpeg judged best (reordered pts, else dts), in stream units.
    package var bestEffortTimestamp: Int64 { pointer.pointee.best_effort_timestamp }
    package var durationInStreamUnits: Int64 { reel_frame_duration(pointer) }
    package var width: Int { Int(pointer.pointee.width) }
    package var height: Int { Int(pointer.pointee.height) }
    package var sampleCount: Int { Int(pointer.pointee.nb_samples) }
    package var isKey: Bool { reel_frame_is_key(pointer) != 0 }
    package var hasDecodeError: Bool { pointer.pointee.decode_error_flags != 0 || (pointer.pointee.flags & AV_FRAME_FLAG_CORRUPT) != 0 }
}
