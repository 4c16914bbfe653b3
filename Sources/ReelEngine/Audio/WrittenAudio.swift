import Foundation

/// The last moments of sound handed to a device, by the device's own frame index: when the
/// device drops what it has not played yet, the sound that would have come next is still here,
/// so it can be faded out instead of cut off mid-wave.
/// Threading: not thread-safe; the owner guards it (the Pulse output, under the mainloop lock).
final class WrittenAudio {
    private let channels: Int
    private let capacity: Int
    private let ring: UnsafeMutablePointer<Float>
    /// Device index (in frames) of the frame after the last one kept.
    private(set) var end: Int64 = 0
    private var count = 0

    init(channels: Int, frames: Int) {
        self.channels = channels
        capacity = max(1, frames)
        ring = .allocate(capacity: capacity * channels)
    }

    deinit { ring.deallocate() }

    /// Keeps `frames` frames written at device index `index` (a jump forgets what came before).
    func append(_ samples: UnsafePointer<Float>, frames: Int, at index: Int64) {
        if index != end { count = 0 }
        var source = samples
        var position = index
        var remaining = frames
        while remaining > 0 {
            let slot = Int(position % Int64(capacity))
            let run = min(remaining, capacity - slot)
            (ring + slot * channels).update(from: source, count: run * channels)
            source += run * channels
            position += Int64(run)
            remaining -= run
        }
        end = index + Int64(frames)
        count = min(capacity, count + frames)
    }

    /// Copies up to `frames` frames starting at device index `index` into `destination`; returns
    /// how many were still held.
    func copy(from index: Int64, frames: Int, into destination: UnsafeMutablePointer<Float>) -> Int {
        let start = end - Int64(count)
        guard index >= start, index < end else { return 0 }
        let available = min(frames, Int(end - index))
        var copied = 0
        while copied < available {
            let slot = Int((index + Int64(copied)) % Int64(capacity))
            let run = min(available - copied, capacity - slot)
            (destination + copied * channels).update(from: ring + slot * channels, count: run * channels)
            copied += run
        }
        return copied
    }
}

/// Raised-cosine gain ramps: a few milliseconds of them turn a cut or a start mid-wave into
/// something the ear does not hear as a click.
/// Threading: pure functions.
enum Fade {
    /// The gain of frame `i` of an `n`-frame fade in (from nearly 0 up to 1).
    static func inGain(_ i: Int, of n: Int) -> Float {
        Float(0.5 - 0.5 * cos(Double.pi * Double(i + 1) / Double(n + 1)))
    }

    /// Fades `frames` interleaved frames in place; `done` frames of the fade are already behind.
    static func applyIn(_ samples: UnsafeMutablePointer<Float>, frames: Int, channels: Int, done: Int, length: Int) {
        for i in 0..<frames {
            let gain = inGain(done + i, of: length)
            for c in 0..<channels { samples[i * channels + c] *= gain }
        }
    }

    /// Fades `frames` interleaved frames out in place, from full level to silence.
    static func applyOut(_ samples: UnsafeMutablePointer<Float>, frames: Int, channels: Int) {
        for i in 0..<frames {
            let gain = 1 - inGain(i, of: frames)
            for c in 0..<channels { samples[i * channels + c] *= gain }
        }
    }
}
