@testable import ReelEngine
import Testing

/// The slot's own bookkeeping, without media: which reports count for its landing, what a close
/// forgets and keeps, and what taking over from the item playing leaves. (Slots with running
/// sessions handed over and failing are covered end to end in GaplessTests.)
@Suite("Media slot")
struct MediaSlotTests {
    private func landing(_ serial: Int, target: Double = 0) -> Preroll {
        Preroll(request: SeekRequest(serial: serial, target: target, mode: .keyframe, movesDemuxer: false), isInitial: true)
    }

    @Test("Only reports of its own landing count")
    func reportsOfItsLanding() {
        var slot = MediaSlot(generation: 3)
        slot.preroll = landing(7)
        let early = slot.pictureArrived(serial: 6, pts: 1), late = slot.soundReady(serial: 8)
        #expect(!early && !late)
        #expect(slot.preroll?.videoArrived == false && slot.preroll?.audioReady == false)
        let picture = slot.pictureArrived(serial: 7, pts: 1.5), sound = slot.soundReady(serial: 7)
        #expect(picture && sound)
        #expect(slot.preroll?.videoPts == 1.5 && slot.preroll?.audioReady == true)
        // A stream that ended before any picture: arrived, with no time of its own.
        var empty = MediaSlot(generation: 4)
        empty.preroll = landing(1)
        let arrived = empty.pictureArrived(serial: 1, pts: .nan)
        #expect(arrived)
        #expect(empty.preroll?.videoPts == nil && empty.startTime == 0)
        #expect(slot.startTime == 1.5)
    }

    @Test("The demuxer's end counts for the request that last moved it; a new move voids it")
    func demuxerEnd() {
        var slot = MediaSlot(generation: 1)
        slot.demuxerMoved(serial: 4)
        slot.demuxerEnded(serial: 3, error: .networkError("old"))
        #expect(slot.demuxEnded == nil && !slot.demuxDone)
        slot.demuxerEnded(serial: 4, error: nil)
        #expect(slot.demuxDone)
        slot.audioDetached = true
        slot.starvedSince = .now
        slot.demuxerMoved(serial: 5)
        #expect(!slot.demuxDone && slot.demuxEnded == nil && !slot.audioDetached && slot.starvedSince == nil)
    }

    @Test("Closing forgets everything about the playing but who it was and what it announced")
    func closeResets() {
        var slot = MediaSlot(generation: 9, source: MediaSource(path: "/nowhere.mkv"))
        slot.preroll = landing(2)
        slot.demuxerMoved(serial: 2)
        slot.demuxerEnded(serial: 2, error: nil)
        slot.audioDetached = true
        slot.starvedSince = .now
        slot.firstFrameReported = true
        slot.durationAnnounced = true
        slot.chained = true
        slot.warnings = [.noSoundServer(reason: "w")]
        slot.close()
        #expect(slot.generation == 9 && slot.source == MediaSource(path: "/nowhere.mkv"))
        #expect(slot.firstFrameReported && slot.durationAnnounced)
        #expect(slot.preroll == nil && slot.session == nil && slot.loader == nil)
        #expect(slot.demuxEnded == nil && slot.demuxSerial == 0 && !slot.audioDetached && slot.starvedSince == nil)
        #expect(!slot.chained && slot.warnings.isEmpty && slot.heldSubtitles.isEmpty)
    }

    @Test("A follower taking over has landed and is no longer chained; a fresh item starts clean")
    func takeOver() {
        var follower = MediaSlot(generation: 2)
        follower.preroll = landing(5)
        follower.demuxerMoved(serial: 5)
        follower.chained = true
        follower.warnings = [.videoCodecUnsupported(stream: 0, codec: "said at the hand-over")]
        #expect(!follower.isReady)   // no session: nothing can be shown
        follower.takeOver()
        #expect(follower.preroll == nil && !follower.chained && follower.warnings.isEmpty)
        #expect(follower.demuxSerial == 5 && follower.generation == 2)
        let fresh = MediaSlot(generation: 3)
        #expect(!fresh.firstFrameReported && !fresh.durationAnnounced && fresh.preroll == nil)
    }
}
