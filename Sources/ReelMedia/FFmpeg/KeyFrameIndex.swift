import CFFmpeg

/// The key frames a demuxer's index lists for one stream (MP4's sync samples, Matroska's cues,
/// AVI's idx1, or what a generic index has collected so far), so that a time can be mapped to
/// the key frame nearest it without reading the file.
///
/// Index timestamps are what the demuxer keeps: decode timestamps in MP4, presentation
/// timestamps in Matroska. `presentationOffset` turns them into presentation times; it is
/// estimated from the stream's start (the first key frame is the first picture) and corrected
/// from every key frame actually decoded.
/// Threading: a value type; built on the thread that owns the input.
package struct KeyFrameIndex {
    /// Index timestamps of the key frames, ascending, in the stream's time base.
    package let timestamps: [Int64]
    package var presentationOffset: Int64
    /// How many entries (of every kind) the demuxer's index had when this was read: a generic
    /// index grows as packets are read, and is read again when it has.
    package let entryCount: Int

    /// Demuxers whose index is read from the file itself (MP4's sample tables, Matroska's
    /// cues) and so lists every key frame. Others build one as they read and seek (MPEG-TS
    /// adds the key frames its timestamp searches pass), which says nothing about the parts
    /// not yet read. (AVI's idx1 is whole too, but holds decode order without presentation
    /// times; with B-frames its key frames cannot be placed, so AVI takes the seeking path.)
    package static let demuxersWithWholeIndex: Set<String> = ["mov,mp4,m4a,3gp,3g2,mj2", "matroska,webm"]

    /// The index of `stream` in `input`, or nil when the demuxer keeps no index of the whole
    /// file or it lists no key frame.
    package init?(input: MediaInput, stream index: Int) {
        let format = String(cString: input.formatContext.pointee.iformat.pointee.name)
        guard Self.demuxersWithWholeIndex.contains(format) else { return nil }
        let stream = input.stream(index)
        let count = Self.entryCount(input: input, stream: index)
        var keys: [Int64] = []
        var firstEntry: Int64?
        for i in 0..<count {
            guard let entry = avformat_index_get_entry(stream, Int32(i))?.pointee else { continue }
            if firstEntry == nil { firstEntry = entry.timestamp }
            let flags = Int32(entry.flags)
            guard (flags & AVINDEX_KEYFRAME) != 0, (flags & AVINDEX_DISCARD_FRAME) == 0 else { continue }
            keys.append(entry.timestamp)
        }
        guard !keys.isEmpty else { return nil }
        keys.sort()
        timestamps = keys
        entryCount = count
        let start = stream.pointee.start_time
        if start != reel_nopts_value(), let firstEntry, firstEntry == keys[0] {
            presentationOffset = start - firstEntry
        } else {
            presentationOffset = 0
        }
    }

    package static func entryCount(input: MediaInput, stream: Int) -> Int {
        Int(avformat_index_get_entries_count(input.stream(stream)))
    }

    /// Whether the index plausibly lists the whole stream rather than what has been read so
    /// far: at least two key frames, the last within two of its typical gaps of `end` (the
    /// stream's last timestamp).
    package func covers(end: Int64) -> Bool {
        guard timestamps.count >= 2 else { return false }
        let gaps = zip(timestamps.dropFirst(), timestamps).map { $0 - $1 }.sorted()
        let typical = gaps[gaps.count / 2]
        return presentation(of: timestamps[timestamps.count - 1]) >= end - 2 * max(typical, 1)
    }

    package func presentation(of timestamp: Int64) -> Int64 { timestamp + presentationOffset }

    /// The presentation time (stream units) of the last key frame starting at or before
    /// `presentation`; nil when the first key frame is after it.
    package func presentation(atOrBefore presentation: Int64) -> Int64? {
        let target = presentation - presentationOffset
        var low = 0, high = timestamps.count   // first key frame after the target
        while low < high {
            let mid = (low + high) / 2
            if timestamps[mid] <= target { low = mid + 1 } else { high = mid }
        }
        return low == 0 ? nil : self.presentation(of: timestamps[low - 1])
    }

    /// The index timestamp of the key frame whose presentation time is nearest `presentation`
    /// (the earlier one on a tie).
    package func nearest(toPresentation presentation: Int64) -> Int64 {
        let target = presentation - presentationOffset
        var low = 0, high = timestamps.count
        while low < high {   // first key frame at or after the target
            let mid = (low + high) / 2
            if timestamps[mid] < target { low = mid + 1 } else { high = mid }
        }
        if low == 0 { return timestamps[0] }
        if low == timestamps.count { return timestamps[low - 1] }
        let before = timestamps[low - 1], after = timestamps[low]
        return target - before <= after - target ? before : after
    }
}
