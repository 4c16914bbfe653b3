@testable import ReelEngine
import Testing

/// A picture as the seek coordinator sees it, held in plain arrays: the pictures decoded ahead
/// of the one shown, the past kept behind it, and how an exact seek within reach is served.
/// The coordinator gets it as a value (`view`) and changes nothing; a test carries the steps it
/// decided out here (`describe(_:on:)`), as the control loop does on the session.
private final class PictureModel {
    var current: (pts: Double, duration: Double)?
    var ahead: [Double] = []
    /// Oldest first, not counting the picture on screen.
    var past: [Double] = []
    var reach: WithinReach = .miss
    var endOfStream = false
    private(set) var asked: [SeekRequest] = []

    init(shown: Double? = 1.0, ahead: [Double] = [], past: [Double] = []) {
        current = shown.map { ($0, 0.25) }
        self.ahead = ahead
        self.past = past
    }

    var view: DecodedPictures {
        var view = DecodedPictures(shown: current)
        view.ahead = ahead.map { ($0, 0.25) }
        view.behind = past.reversed().map { ($0, 0.25) }
        view.decoderEnded = endOfStream
        view.reach = { [self] request in
            asked.append(request)
            return reach
        }
        return view
    }

    /// What the control loop would do with the steps decided.
    func carryOut(_ actions: [SeekAction]) {
        for action in actions {
            switch action {
            case .stepForward:
                let pts = ahead.removeFirst()
                if let c = current { past.append(c.pts) }
                current = (pts, 0.25)
            case .stepBack:
                let pts = past.removeLast()
                if let c = current { ahead.insert(c.pts, at: 0) }
                current = (pts, 0.25)
            default:
                break
            }
        }
    }
}

/// The actions in a form a test can compare: "seek 2 exact 5.0", "stepForward 1.04"...; with a
/// model, they are carried out on it first.
private func describe(_ actions: [SeekAction], on picture: PictureModel? = nil) -> [String] {
    picture?.carryOut(actions)
    return actions.map { action in
        switch action {
        case .seek(let r):
            "seek \(r.serial) \(r.mode) \(r.target)" + (r.fillsPast ? " fillsPast" : "") + (r.audioSwitch != nil ? " audio" : "")
        case .retry(let r): "retry \(r.serial) \(r.target) from \(r.demuxTarget)"
        case .retarget(let r): "retarget \(r.serial) \(r.target)"
        case .showDecoded(let r): "showDecoded \(r.target)"
        case .stepForward(let t): "stepForward \(t)"
        case .stepBack(let t): "stepBack \(t)"
        case .scrub(let t): "scrub \(t)"
        }
    }
}

private func context(_ state: PlayerState = .ready, landing: Bool = false, audio: Bool = true,
                     session: Bool = true, duration: Double? = 60, leaveEnd: @escaping () -> Bool = { true }) -> SeekContext {
    SeekContext(state: state, hasSession: session, hasVideo: session, hasAudio: audio && session,
                landing: landing, duration: duration, leaveEnd: leaveEnd)
}

@Suite("Seek coordinator")
struct SeekCoordinatorTests {
    @Test("A seek while another lands replaces it under a newer serial: the latest wins")
    func latestSeekWins() {
        var seeks = SeekCoordinator()
        let picture = PictureModel()
        #expect(describe(seeks.seek(to: 10, mode: .keyframe, in: context(), picture: picture.view)) == ["seek 1 keyframe 10.0"])
        // Landing: no picture is consulted; each new seek gets a newer serial.
        #expect(describe(seeks.seek(to: 20, mode: .exact, in: context(landing: true), picture: picture.view))
                == ["seek 2 exact 20.0"])
        #expect(describe(seeks.seek(to: 30, mode: .exact, in: context(landing: true), picture: picture.view))
                == ["seek 3 exact 30.0"])
        #expect(picture.asked.isEmpty)
        #expect(seeks.serial == 3)
    }

    @Test("Seeks asked while loading wait for the media; the latest is its first landing, clamped")
    func seekWhileLoading() {
        var seeks = SeekCoordinator()
        let loading = context(.loading, session: false)
        #expect(seeks.seek(to: 5, mode: .keyframe, in: loading, picture: nil).isEmpty)
        #expect(seeks.seek(to: 90, mode: .exact, in: loading, picture: nil).isEmpty)
        let first = seeks.openingRequest(duration: 60)
        #expect(first.target == 60 && first.mode == .exact && first.movesDemuxer)
        #expect(seeks.pendingSeek == nil)
        let plain = seeks.openingRequest(duration: 60)
        #expect(plain.target == 0 && !plain.movesDemuxer && plain.serial > first.serial)
    }

    @Test("Closed or failed: a seek does nothing; non-finite targets are refused")
    func refusedSeeks() {
        var seeks = SeekCoordinator()
        #expect(seeks.seek(to: 5, mode: .exact, in: context(.idle, session: false), picture: nil).isEmpty)
        #expect(seeks.seek(to: .nan, mode: .exact, in: context(), picture: PictureModel().view).isEmpty)
        #expect(seeks.scrub(to: .infinity, in: context(), picture: PictureModel().view).isEmpty)
        #expect(seeks.serial == 0)
    }

    @Test("From the end a seek first leaves it; a vetoed leave seeks nowhere")
    func seekFromTheEnd() {
        var seeks = SeekCoordinator()
        var left = 0
        let allowed = context(.ended, leaveEnd: { left += 1; return true })
        #expect(describe(seeks.seek(to: 3, mode: .keyframe, in: allowed, picture: PictureModel().view)) == ["seek 1 keyframe 3.0"])
        #expect(left == 1)
        let vetoed = context(.ended, leaveEnd: { false })
        #expect(seeks.seek(to: 4, mode: .keyframe, in: vetoed, picture: PictureModel().view).isEmpty)
        #expect(seeks.serial == 1)
    }

    @Test("Forward steps asked during a landing add up and are served by decoded pictures as they come")
    func stepsMerge() {
        var seeks = SeekCoordinator()
        let picture = PictureModel(ahead: [])
        for _ in 0..<3 { #expect(seeks.stepForward(in: context(landing: true), picture: picture.view).isEmpty) }
        #expect(seeks.pendingSteps == 3)
        picture.ahead = [1.25, 1.5]
        #expect(describe(seeks.landed(in: context(), picture: picture.view), on: picture) == ["stepForward 1.25", "stepForward 1.5"])
        #expect(seeks.pendingSteps == 1)
        // Nothing decoded yet: the step waits; the next picture decoded serves it.
        #expect(seeks.picturesMayHaveArrived(in: context(), picture: picture.view).isEmpty)
        picture.ahead = [1.75]
        #expect(describe(seeks.picturesMayHaveArrived(in: context(), picture: picture.view), on: picture) == ["stepForward 1.75"])
        #expect(seeks.pendingSteps == 0)
    }

    @Test("A step past the last picture is dropped, not kept waiting")
    func stepAtTheEnd() {
        var seeks = SeekCoordinator()
        let picture = PictureModel()
        picture.endOfStream = true
        #expect(seeks.stepForward(in: context(), picture: picture.view).isEmpty)
        #expect(seeks.pendingSteps == 0)
    }

    @Test("A seek drops the forward steps still waiting")
    func seekDropsSteps() {
        var seeks = SeekCoordinator()
        _ = seeks.stepForward(in: context(landing: true), picture: PictureModel().view)
        _ = seeks.seek(to: 5, mode: .keyframe, in: context(landing: true), picture: PictureModel().view)
        #expect(seeks.pendingSteps == 0)
    }

    @Test("Back steps come from the past while it lasts, then one seek that fills the past; the rest wait for it")
    func backSteps() {
        var seeks = SeekCoordinator()
        let picture = PictureModel(shown: 1.0, past: [0.5, 0.75])
        #expect(describe(seeks.stepBackward(in: context(), picture: picture.view), on: picture) == ["stepBack 0.75"])
        #expect(seeks.audioStale)
        #expect(describe(seeks.stepBackward(in: context(), picture: picture.view), on: picture) == ["stepBack 0.5"])
        // The past is used up: an exact seek into the previous picture's interval.
        #expect(describe(seeks.stepBackward(in: context(), picture: picture.view)) == ["seek 1 exact 0.375 fillsPast"])
        #expect(!seeks.audioStale)
        // Two more during that landing wait, then come from the past it filled.
        #expect(seeks.stepBackward(in: context(landing: true), picture: picture.view).isEmpty)
        #expect(seeks.stepBackward(in: context(landing: true), picture: picture.view).isEmpty)
        #expect(seeks.pendingBackSteps == 2)
        picture.current = (3.0, 0.25)
        picture.ahead = []
        picture.past = [2.5, 2.75]
        #expect(describe(seeks.landed(in: context(), picture: picture.view)) == ["stepBack 2.75", "stepBack 2.5"])
        #expect(seeks.pendingBackSteps == 0)
    }

    @Test("A back step at the first picture goes nowhere; from the end it leaves the end first")
    func backStepEdges() {
        var seeks = SeekCoordinator()
        #expect(seeks.stepBackward(in: context(), picture: PictureModel(shown: 0).view).isEmpty)
        #expect(seeks.pendingBackSteps == 0 && seeks.serial == 0)
        var left = false
        let actions = seeks.stepBackward(in: context(.ended, leaveEnd: { left = true; return true }),
                                         picture: PictureModel(shown: 2.0, past: [1.96]).view)
        #expect(left && describe(actions) == ["stepBack 1.96"])
    }

    @Test("A drag asks for one position at a time; only the newest waiting one lands next")
    func scrubMerging() {
        var seeks = SeekCoordinator()
        let picture = PictureModel()
        #expect(describe(seeks.scrub(to: 5, in: context(), picture: picture.view)) == ["seek 1 keyframe 5.0"])
        #expect(picture.asked.count == 1 && picture.asked[0].fillsPast)
        for t in [6.0, 7.0, 8.0] { #expect(seeks.scrub(to: t, in: context(landing: true), picture: picture.view).isEmpty) }
        #expect(seeks.pendingScrub == 8)
        #expect(describe(seeks.landed(in: context(), picture: picture.view)) == ["scrub 8.0"])
        #expect(seeks.pendingScrub == nil)
    }

    @Test("A press inside the picture decoded ahead lands exactly on it; elsewhere on the key frame")
    func scrubOnPrefetched() {
        var seeks = SeekCoordinator()
        var pictures = PictureModel().view
        pictures.prefetched = (pts: 4.0, duration: 0.04)
        #expect(describe(seeks.scrub(to: 4.02, in: context(), picture: pictures)) == ["seek 1 exact 4.02"])
        #expect(describe(seeks.scrub(to: 4.05, in: context(), picture: pictures)) == ["seek 2 keyframe 4.05"])
        #expect(describe(seeks.scrub(to: 3.99, in: context(), picture: pictures)) == ["seek 3 keyframe 3.99"])
    }

    @Test("The release lands exactly where it is, and a position the drag left waiting never lands after it")
    func scrubRelease() {
        var seeks = SeekCoordinator()
        let picture = PictureModel()
        _ = seeks.scrub(to: 5, in: context(), picture: picture.view)
        _ = seeks.scrub(to: 6, in: context(landing: true), picture: picture.view)
        #expect(describe(seeks.endScrub(at: 6.5, in: context(landing: true), picture: picture.view)) == ["seek 2 exact 6.5"])
        #expect(seeks.pendingScrub == nil)
        #expect(seeks.landed(in: context(), picture: picture.view).isEmpty)
    }

    @Test("An exact paused seek within reach is retargeted or landed from decoded pictures; else the demuxer moves")
    func withinReach() {
        var seeks = SeekCoordinator()
        let picture = PictureModel()
        picture.reach = .retargeted
        #expect(describe(seeks.seek(to: 2, mode: .exact, in: context(), picture: picture.view)) == ["retarget 1 2.0"])
        #expect(seeks.audioStale)
        picture.reach = .landed
        #expect(describe(seeks.seek(to: 1.5, mode: .exact, in: context(), picture: picture.view)) == ["showDecoded 1.5"])
        #expect(seeks.serial == 1)
        picture.reach = .miss
        #expect(describe(seeks.seek(to: 30, mode: .exact, in: context(), picture: picture.view)) == ["seek 2 exact 30.0"])
        #expect(!seeks.audioStale)
    }

    @Test("Only a paused exact seek with nothing landing looks within reach")
    func withinReachOnlyWhenPaused() {
        var seeks = SeekCoordinator()
        let picture = PictureModel()
        picture.reach = .landed
        #expect(describe(seeks.seek(to: 2, mode: .exact, in: context(.playing), picture: picture.view)) == ["seek 1 exact 2.0"])
        #expect(describe(seeks.seek(to: 2, mode: .keyframe, in: context(), picture: picture.view)) == ["seek 2 keyframe 2.0"])
        #expect(describe(seeks.seek(to: 2, mode: .exact, in: context(landing: true), picture: picture.view)) == ["seek 3 exact 2.0"])
        #expect(picture.asked.isEmpty)
    }

    @Test("The sound left behind is marked only when there is sound; the next seek brings it back")
    func audioStale() {
        var seeks = SeekCoordinator()
        let picture = PictureModel()
        picture.reach = .landed
        _ = seeks.seek(to: 2, mode: .exact, in: context(audio: false), picture: picture.view)
        #expect(!seeks.audioStale)
        _ = seeks.seek(to: 2, mode: .exact, in: context(), picture: picture.view)
        #expect(seeks.audioStale)
        // Play after a paused move: an exact seek with the clock running takes the sound along.
        #expect(describe(seeks.reseek(to: 2, mode: .exact, in: context(.playing), picture: picture.view)) == ["seek 1 exact 2.0"])
        #expect(!seeks.audioStale)
    }

    @Test("A first picture after the target retries from further back, a bounded number of times")
    func retries() {
        var seeks = SeekCoordinator()
        var request = SeekRequest(serial: seeks.newSerial(), target: 100, mode: .exact, movesDemuxer: true)
        #expect(seeks.pictureArrived(for: request, at: 99.9) == nil)
        var tries = 0
        while let again = seeks.pictureArrived(for: request, at: 101) {
            #expect(again.serial > request.serial && again.demuxTarget < request.demuxTarget && again.target == 100)
            request = again
            tries += 1
        }
        #expect(tries == 6)
        let opening = SeekRequest(serial: seeks.newSerial(), target: 0, mode: .keyframe, movesDemuxer: false)
        #expect(seeks.pictureArrived(for: opening, at: .nan) == nil)
    }

    @Test("The player's own seeks (play after a paused move, a new speed) keep a drag's waiting position")
    func ownSeeksKeepDrag() {
        var seeks = SeekCoordinator()
        let picture = PictureModel()
        picture.reach = .landed
        _ = seeks.scrub(to: 4, in: context(landing: true), picture: picture.view)
        let actions = seeks.reseek(to: 3, mode: .exact, in: context(.playing), picture: picture.view)
        #expect(describe(actions) == ["seek 1 exact 3.0"])
        #expect(seeks.pendingScrub == 4)
    }

    @Test("Reset forgets every waiting step, back step, drag position, seek and stale sound, not the serial")
    func reset() {
        var seeks = SeekCoordinator()
        let picture = PictureModel()
        picture.reach = .landed
        _ = seeks.seek(to: 2, mode: .exact, in: context(), picture: picture.view)
        _ = seeks.seek(to: 3, mode: .keyframe, in: context(.loading, session: false), picture: nil)
        _ = seeks.stepForward(in: context(landing: true), picture: picture.view)
        _ = seeks.stepBackward(in: context(landing: true), picture: picture.view)
        _ = seeks.scrub(to: 4, in: context(landing: true), picture: picture.view)
        let serial = seeks.newSerial()
        seeks.reset()
        #expect(seeks.pendingSteps == 0 && seeks.pendingBackSteps == 0 && seeks.pendingScrub == nil)
        #expect(seeks.pendingSeek == nil && !seeks.audioStale)
        #expect(seeks.newSerial() == serial + 1)
    }

    @Test("Deciding changes no picture: the plan moves through the pictures it was given, and steps forward then back in one landing plan on the pictures the first moved")
    func planOnValues() {
        var seeks = SeekCoordinator()
        let picture = PictureModel(shown: 1.0, ahead: [1.25], past: [0.75])
        _ = seeks.stepForward(in: context(landing: true), picture: picture.view)
        _ = seeks.stepBackward(in: context(landing: true), picture: picture.view)
        let view = picture.view
        #expect(describe(seeks.landed(in: context(), picture: view)) == ["stepForward 1.25", "stepBack 1.0"])
        // Nothing was carried out: the model, and the value handed over, are as they were.
        #expect(picture.current?.pts == 1.0 && picture.ahead == [1.25] && picture.past == [0.75])
        #expect(view.shown?.pts == 1.0 && view.ahead.map(\.pts) == [1.25] && view.behind.map(\.pts) == [0.75])
        // The same question twice gets the same answer until the steps are carried out.
        _ = seeks.stepForward(in: context(landing: true), picture: picture.view)
        #expect(describe(seeks.landed(in: context(), picture: picture.view)) == ["stepForward 1.25"])
        _ = seeks.stepForward(in: context(landing: true), picture: picture.view)
        #expect(describe(seeks.landed(in: context(), picture: picture.view), on: picture) == ["stepForward 1.25"])
        #expect(picture.current?.pts == 1.25 && picture.past == [0.75, 1.0])
    }

    @Test("Served from decoded pictures but no longer within reach when carried out: the demuxer moves, exactly for a seek, to the key frame for a drag")
    func notWithinReachAnyMore() {
        var seeks = SeekCoordinator()
        let picture = PictureModel()
        picture.reach = .retargeted
        let actions = seeks.seek(to: 2, mode: .exact, in: context(), picture: picture.view)
        guard case .retarget(let request)? = actions.first else { Issue.record("\(actions)"); return }
        #expect(seeks.audioStale)
        #expect(describe(seeks.notWithinReach(request, in: context())) == ["seek 2 exact 2.0"])
        #expect(!seeks.audioStale)
        picture.reach = .landed
        let dragged = seeks.scrub(to: 7, in: context(), picture: picture.view)
        guard case .showDecoded(let shown)? = dragged.first else { Issue.record("\(dragged)"); return }
        #expect(describe(seeks.notWithinReach(shown, in: context())) == ["seek 3 keyframe 7.0"])
    }
}
