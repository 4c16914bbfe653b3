@testable import ReelEngine
import Testing

/// The slot's own bookkeeping, without media: which reports count for its landing, how the
/// status of its video, its sound and its demuxer moves, what a close forgets and keeps, and
/// what taking over from the item playing leaves. (Slots with running sessions handed over and
/// failing are covered end to end in GaplessTests.)
@Suite("Media slot")
struct MediaSlotTests {
    private func request(_ serial: Int) -> SeekRequest {
        SeekRequest(serial: serial, target: 0, mode: .keyframe, movesDemuxer: false)
    }

    @Test("Only reports of its own landing count")
    func reportsOfItsLanding() {
        var slot = MediaSlot(generation: 3)
        slot.beginLanding(request(7), isInitial: true)
        #expect(slot.video == .syncing && slot.audio == .syncing)
        let early = slot.pictureArrived(serial: 6, pts: 1), late = slot.soundReady(serial: 8)
        #expect(!early && !late)
        #expect(slot.video == .syncing && slot.audio == .syncing)
        let picture = slot.pictureArrived(serial: 7, pts: 1.5), sound = slot.soundReady(serial: 7)
        #expect(picture && sound)
        #expect(slot.video == .ready(at: 1.5) && slot.audio == .ready(at: nil))
        // A stream that ended before any picture: arrived, with no time of its own.
        var empty = MediaSlot(generation: 4)
        empty.beginLanding(request(1), isInitial: true)
        let arrived = empty.pictureArrived(serial: 1, pts: .nan)
        #expect(arrived)
        #expect(empty.video == .ready(at: nil) && empty.startTime == 0)
        #expect(slot.startTime == 1.5)
    }

    @Test("A landing that moves only the picture leaves the sound as it was; landed, both play")
    func pictureOnlyLanding() {
        var slot = MediaSlot(generation: 1)
        slot.beginLanding(request(1), isInitial: true)
        _ = slot.pictureArrived(serial: 1, pts: 0)
        _ = slot.soundReady(serial: 1)
        slot.landed()
        #expect(slot.preroll == nil && slot.video == .playing && slot.audio == .playing)
        slot.beginLanding(request(2), soundToo: false)
        #expect(slot.video == .syncing && slot.audio == .playing && slot.soundDone && !slot.pictureDone)
        #expect(slot.preroll?.isInitial == false)
        // A seek during the first landing still ends the loading.
        var opening = MediaSlot(generation: 2)
        opening.beginLanding(request(1), isInitial: true)
        opening.beginLanding(request(2))
        #expect(opening.preroll?.isInitial == true && opening.preroll?.request.serial == 2)
    }

    @Test("The demuxer's end counts for the request that last moved it; a new move voids it, the sound's end and starving")
    func demuxerEnd() {
        var slot = MediaSlot(generation: 1)
        slot.beginLanding(request(1))
        slot.landed()
        slot.demuxerMoved(serial: 4)
        slot.demuxerEnded(serial: 3, error: .networkError("old"))
        #expect(slot.demuxer == .reading(serial: 4) && !slot.demuxDone)
        slot.demuxerEnded(serial: 4, error: nil)
        #expect(slot.demuxDone && slot.demuxError == nil)
        slot.soundEnded()
        let since = slot.starving(video: true, audio: false)
        #expect(since != nil && slot.video.starvingSince == since && slot.audio == .ended)
        slot.demuxerMoved(serial: 5)
        #expect(!slot.demuxDone && slot.audio == .playing && slot.video == .playing)
        slot.demuxerEnded(serial: 5, error: .corruptData("cut"))
        #expect(slot.demuxError == .corruptData("cut"))
    }

    @Test("Starving is counted from the first stream to run dry, while any does")
    func starving() {
        var slot = MediaSlot(generation: 1)
        slot.beginLanding(request(1))
        slot.landed()
        let t0 = HostTime.now, t1 = t0.adding(seconds: 0.1)
        #expect(slot.starving(video: false, audio: false, now: t0) == nil)
        #expect(slot.starving(video: true, audio: false, now: t0) == t0)
        #expect(slot.starving(video: true, audio: true, now: t1) == t0)
        #expect(slot.audio == .starving(since: t1))
        #expect(slot.starving(video: false, audio: true, now: t1) == t1)
        slot.stopStarving()
        #expect(slot.video == .playing && slot.audio == .playing)
    }

    @Test("Closing forgets everything about the playing but who it was and what it announced")
    func closeResets() {
        var slot = MediaSlot(generation: 9, source: MediaSource(path: "/nowhere.mkv"))
        slot.beginLanding(request(2))
        slot.demuxerMoved(serial: 2)
        slot.demuxerEnded(serial: 2, error: nil)
        slot.soundEnded()
        slot.firstFrameReported = true
        slot.durationAnnounced = true
        slot.chained = true
        slot.warnings = [.noSoundServer(reason: "w")]
        slot.close()
        #expect(slot.generation == 9 && slot.source == MediaSource(path: "/nowhere.mkv"))
        #expect(slot.firstFrameReported && slot.durationAnnounced)
        #expect(slot.preroll == nil && slot.session == nil && slot.loader == nil)
        #expect(slot.demuxer == .reading(serial: 0) && slot.video == .none && slot.audio == .none)
        #expect(!slot.chained && slot.warnings.isEmpty && slot.heldSubtitles.isEmpty)
    }

    @Test("A follower taking over has landed and is no longer chained; a fresh item starts clean")
    func takeOver() {
        var follower = MediaSlot(generation: 2)
        follower.beginLanding(request(5), isInitial: true)
        follower.demuxerMoved(serial: 5)
        follower.chained = true
        follower.warnings = [.videoCodecUnsupported(stream: 0, codec: "said at the hand-over")]
        let ready = follower.isReady
        #expect(!ready)   // no session: nothing can be shown
        follower.takeOver()
        #expect(follower.preroll == nil && !follower.chained && follower.warnings.isEmpty)
        #expect(follower.demuxer == .reading(serial: 5) && follower.generation == 2)
        #expect(follower.video == .playing && follower.audio == .playing)
        let fresh = MediaSlot(generation: 3)
        #expect(!fresh.firstFrameReported && !fresh.durationAnnounced && fresh.preroll == nil)
        #expect(fresh.video == .none && fresh.audio == .none)
    }

    @Test("The hand-over moves the follower into the current slot and leaves none behind")
    func handOver() {
        var current = MediaSlot(generation: 1)
        var next: MediaSlot? = MediaSlot(generation: 2, source: MediaSource(path: "/next.mkv"))
        next?.beginLanding(request(3), isInitial: true)
        current.close()
        current = next.take()!
        current.takeOver()
        let left = next?.generation
        #expect(left == nil)
        #expect(current.generation == 2 && current.source == MediaSource(path: "/next.mkv") && current.preroll == nil)
    }
}
