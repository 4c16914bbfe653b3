import CFFmpeg

/// The video decoder's deinterlacing step, between decoding and the seek's routing: decoded
/// frames in (stream time base), pictures out (in half the stream's time base while it is active). It
/// decides when to deinterlace (the mode, read at each flush; `auto` from the first frame
/// flagged interlaced on, for the rest of the session, as mpv's auto filter does), feeds
/// bwdif (`FieldFilter`, rebuilt at each flush, as mpv resets its deinterlacer) and says which
/// pictures are as a run from the start would make them.
///
/// bwdif reads a frame's predecessor: fed cold from an exact target's frame it is 34 dB from
/// continuous play; fed from the frame before, identical. So before an exact target only the
/// latest frame that ends before it is held (`hold`), and pushed just before the frame that
/// holds the target: O(1) filtering, whatever the GOP.
/// Threading: used only by the video decoder thread; `mode` is written by the control thread.
final class Deinterlacer {
    /// A picture out, with its time in the pictures' time base.
    struct Picture {
        let frame: Frame
        let pts: Int64
        let duration: Int64
        /// Made from a frame whose predecessor bwdif did not see (the first after a flush or a
        /// hold): shown only if nothing better holds the target, never kept as the past.
        let isPrimer: Bool
    }

    /// What was pushed, to time and judge the pictures that come out of it.
    private struct Pushed {
        let pts: Int64
        let duration: Int64
        let interlaced: Bool
        let followsPredecessor: Bool
    }

    private let mode: Locked<DeinterlaceMode>
    private let frameTimeBase: AVRational
    /// The stream's first pts: the first frame has no predecessor, in any run.
    private let startPts: Int64
    private let report: (DeinterlaceStatus) -> Void
    private let picturesPerSecond: Double?
    private let likelyInterlaced: Bool
    private var current: DeinterlaceMode
    private var filter: FieldFilter?
    /// `auto` met a frame flagged interlaced: deinterlacing stays on for the session.
    private var metInterlaced = false
    private var topFieldFirst: Bool?
    /// The latest frame before an exact target, not pushed yet.
    private var held: (frame: Frame, pts: Int64, duration: Int64, followsPredecessor: Bool)?
    /// The pts of the frame decoded last (pushed or held), and of the frame pushed last.
    private var lastDecoded: Int64?
    private var lastPushed: Int64?
    private var pushed: [Pushed] = []
    private var lastStatus: DeinterlaceStatus?

    /// `likelyInterlaced`: the stream says its fields are ordered (so `auto` will deinterlace).
    init(mode: Locked<DeinterlaceMode>, timeBase: AVRational, startPts: Int64, frameDuration: Int64,
         likelyInterlaced: Bool, report: @escaping (DeinterlaceStatus) -> Void) {
        self.mode = mode
        self.likelyInterlaced = likelyInterlaced
        frameTimeBase = timeBase
        self.startPts = startPts
        self.report = report
        current = mode.current
        picturesPerSecond = frameDuration > 0 ? 2 / (Double(frameDuration) * av_q2d(timeBase)) : nil
    }

    /// Pictures are fields now (in half the stream's time base); frames otherwise.
    var isActive: Bool { current == .on || (current == .auto && metInterlaced) }

    /// Every frame has to be decoded (none skipped before a target): bwdif needs each
    /// picture's true predecessor. Asked before the first frame is decoded, so the stream's
    /// own word counts too.
    var needsEveryFrame: Bool { isActive || (current != .off && likelyInterlaced) }

    /// A seek flushed the decoder: the graph starts again, and the mode may have changed.
    func reset() {
        current = mode.current
        filter = nil
        held = nil
        lastDecoded = nil
        lastPushed = nil
        pushed.removeAll()
        announce()
    }

    /// Takes a decoded frame (its pts and duration in stream units). Nil: not deinterlacing,
    /// the frame goes on as it is. `hold`: it ends before an exact target, so it is only kept
    /// as the possible predecessor of the target's frame.
    func take(_ frame: Frame, pts: Int64, duration: Int64, hold: Bool) -> [Picture]? {
        let order = reel_frame_field_order(frame.pointer)
        if order != 0 && !metInterlaced && current == .auto {
            metInterlaced = true
        }
        if order != 0 && topFieldFirst == nil { topFieldFirst = order == 1 }
        guard isActive else { lastDecoded = pts; return nil }
        announce()
        frame.pointer.pointee.pts = pts
        let follows = lastDecoded != nil && lastPushed == lastDecoded
        let first = pts <= startPts
        lastDecoded = pts
        if hold {
            held = (frame, pts, duration, follows || first)
            return []
        }
        var pictures: [Picture] = []
        if let h = held {
            held = nil
            pictures += push(h.frame, pts: h.pts, duration: h.duration, follows: h.followsPredecessor)
            // The held frame was decoded just before this one.
            pictures += push(frame, pts: pts, duration: duration, follows: true)
        } else {
            pictures += push(frame, pts: pts, duration: duration, follows: follows || first)
        }
        return pictures
    }

    /// The end of the stream: the last frame's pictures.
    func drain() -> [Picture] {
        guard isActive else { return [] }
        var pictures: [Picture] = []
        if let h = held {
            held = nil
            pictures += push(h.frame, pts: h.pts, duration: h.duration, follows: h.followsPredecessor)
        }
        if let filter { pictures += filter.drain().map(picture(from:)) }
        filter = nil
        return pictures
    }

    private func push(_ frame: Frame, pts: Int64, duration: Int64, follows: Bool) -> [Picture] {
        let shape = FieldFilter.Shape(frame.pointer)
        var out: [Frame] = []
        if let f = filter, f.shape != shape {
            out += f.drain()   // the last frame of the old shape
            filter = nil
        }
        if filter == nil {
            do throws(PlayerError) {
                filter = try FieldFilter(shape: shape, timeBase: frameTimeBase, everyFrame: current == .on)
            } catch {
                // Nothing to deinterlace with: the frame is shown woven rather than not at all.
                return out.map(picture(from:)) + [Picture(frame: frame, pts: 2 * pts, duration: 2 * duration,
                                                          isPrimer: false)]
            }
        }
        pushed.append(Pushed(pts: pts, duration: duration, interlaced: reel_frame_field_order(frame.pointer) != 0,
                             followsPredecessor: follows))
        if pushed.count > 4 { pushed.removeFirst(pushed.count - 4) }
        lastPushed = pts
        do throws(PlayerError) { out += try filter!.push(frame) } catch { filter = nil }
        return out.map(picture(from:))
    }

    /// Times a picture from the frame it came from: a field lasts half its frame (the frame's
    /// duration in the halved time base); a frame bwdif let through lasts all of it.
    private func picture(from frame: Frame) -> Picture {
        let pts = frame.pointer.pointee.pts
        let source = pushed.last { 2 * $0.pts <= pts } ?? pushed.first
        let passedThrough = reel_frame_field_order(frame.pointer) != 0
            || (current == .auto && source?.interlaced == false)
        let duration = (source?.duration ?? 0) * (passedThrough ? 2 : 1)
        return Picture(frame: frame, pts: pts, duration: duration, isPrimer: !(source?.followsPredecessor ?? false))
    }

    private func announce() {
        let status = DeinterlaceStatus(mode: current, isActive: isActive,
                                       picturesPerSecond: isActive ? picturesPerSecond : nil,
                                       topFieldFirst: isActive ? topFieldFirst : nil)
        guard status != lastStatus else { return }
        lastStatus = status
        report(status)
    }
}
