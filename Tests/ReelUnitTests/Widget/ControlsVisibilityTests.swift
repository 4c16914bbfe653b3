import ReelGtk
import Testing

/// The show/hide policy on a clock the test controls.
@Suite("Controls visibility")
struct ControlsVisibilityTests {
    @Test("Pointer motion shows them; they hide after the display duration without input")
    func motionThenFade() {
        var v = ControlsVisibility(displayDuration: 2)
        v.pointerMoved(x: 10, y: 10, now: 0)        // first report: only where the pointer is
        #expect(!v.visible)
        v.pointerMoved(x: 30, y: 10, now: 0.5)
        #expect(v.visible)
        #expect(v.hideAt == 2.5)
        do { let changed = v.tick(now: 2.4); #expect(!changed) }
        #expect(v.visible)
        v.pointerMoved(x: 60, y: 10, now: 2.0)       // more input: later
        do { let changed = v.tick(now: 2.5); #expect(!changed) }
        do { let changed = v.tick(now: 4.0); #expect(changed) }
        #expect(!v.visible)
    }

    @Test("A window appearing under a still pointer (launch by keyboard) does not reveal them")
    func stillPointer() {
        var v = ControlsVisibility()
        v.pointerMoved(x: 100, y: 100, now: 0)
        v.pointerMoved(x: 100, y: 100, now: 0.1)
        v.pointerMoved(x: 100.4, y: 100.2, now: 0.2)
        #expect(!v.visible)
    }

    @Test("A tap toggles them, unless tapping is off")
    func tap() {
        var v = ControlsVisibility()
        v.tapped(now: 0)
        #expect(v.visible)
        v.tapped(now: 0.5)
        #expect(!v.visible)
        var off = ControlsVisibility(displayOnTap: false)
        off.tapped(now: 0)
        #expect(!off.visible)
    }

    @Test("Never while the pointer is over them or the scrubber is held")
    func heldUp() {
        var v = ControlsVisibility(displayDuration: 1)
        v.show(now: 0)
        v.pointerOverControls(true, now: 0.5)
        #expect(v.hideAt == nil)
        do { let changed = v.tick(now: 10); #expect(!changed) }
        #expect(v.visible)
        v.pointerOverControls(false, now: 10)
        #expect(v.hideAt == 11)
        v.scrubbing(true, now: 10.5)
        do { let changed = v.tick(now: 20); #expect(!changed) }
        v.scrubbing(false, now: 20)
        do { let changed = v.tick(now: 21); #expect(changed) }
        #expect(!v.visible)
    }

    @Test("A popover opening from them shows them; they stay while it is open and fade after it closes")
    func popoverHolds() {
        var v = ControlsVisibility(displayDuration: 1)
        v.popover(true, now: 0)                    // F10: the menu opens with the controls hidden
        #expect(v.visible)
        #expect(v.hideAt == nil)
        do { let changed = v.tick(now: 30); #expect(!changed) }
        v.popover(true, now: 30)                   // a second one (the queue's) over the first
        v.popover(false, now: 31)
        do { let changed = v.tick(now: 40); #expect(!changed) }
        #expect(v.visible, "hid with a popover still open")
        v.popover(false, now: 40)
        #expect(v.hideAt == 41)
        do { let changed = v.tick(now: 41); #expect(changed) }
        #expect(!v.visible)
    }

    @Test("The pointer over either region (the bar, the header) keeps them; leaving one for the other still does")
    func twoRegions() {
        var v = ControlsVisibility(displayDuration: 1)
        v.show(now: 0)
        v.pointerOverControls(true, now: 0.5)      // the header
        v.pointerOverControls(true, now: 0.6)      // the bar, its entering told before the header's leaving
        v.pointerOverControls(false, now: 0.7)
        do { let changed = v.tick(now: 10); #expect(!changed) }
        #expect(v.visible)
        v.pointerOverControls(false, now: 10)
        do { let changed = v.tick(now: 11); #expect(changed) }
    }

    @Test("Without media the bar stays hidden and the overlays (the header) stay shown; with media both follow the controls")
    func overlaysWithoutMedia() {
        var v = ControlsVisibility(displayDuration: 1)
        #expect(!v.barShown && v.overlaysShown)
        v.show(now: 0)
        #expect(!v.barShown && v.overlaysShown)
        v.hasMedia = true
        #expect(v.barShown && v.overlaysShown)
        v.tick(now: 1)
        #expect(!v.barShown && !v.overlaysShown)
        v.hasMedia = false                         // closed: the header comes back
        #expect(v.overlaysShown)
    }

    @Test("Never hide keeps them up through everything")
    func neverHide() {
        var v = ControlsVisibility(neverHide: true)
        #expect(v.visible)
        v.tapped(now: 0)
        v.hide()
        do { let changed = v.tick(now: 100); #expect(!changed) }
        #expect(v.visible)
        v.neverHide = false
        v.show(now: 100)
        do { let changed = v.tick(now: 100 + ControlsVisibility.defaultDisplayDuration); #expect(changed) }
    }

    @Test("Paused they come up and stay; a tap still hides them; playing again they fade after the display duration")
    func pausedHolds() {
        var v = ControlsVisibility(displayDuration: 1)
        v.hasMedia = true
        #expect(!v.visible)
        v.playbackPaused(true, now: 0)              // a pause (a key, the remote, the end)
        #expect(v.visible && v.hideAt == nil)
        do { let changed = v.tick(now: 100); #expect(!changed) }
        v.pointerMoved(x: 1, y: 1, now: 100)
        v.pointerMoved(x: 50, y: 1, now: 101)       // input while paused: still no fade
        #expect(v.visible && v.hideAt == nil)
        v.tapped(now: 102)                         // a tap hides them, to look at the picture
        #expect(!v.visible)
        v.pointerMoved(x: 90, y: 1, now: 103)       // and motion brings them back, to stay
        #expect(v.visible && v.hideAt == nil)
        v.playbackPaused(false, now: 110)           // playing again
        #expect(v.hideAt == 111)
        do { let changed = v.tick(now: 111); #expect(changed) }
        #expect(!v.visible)
        v.playbackPaused(false, now: 120)           // no change: nothing shows
        #expect(!v.visible)
    }

    @Test("With hide-while-paused a pause neither shows nor holds them; turned off while paused, they come up")
    func hideWhilePaused() {
        var v = ControlsVisibility(displayDuration: 1)
        v.hasMedia = true
        v.hideWhilePaused = true
        v.playbackPaused(true, now: 0)
        #expect(!v.visible)
        v.show(now: 5)
        #expect(v.hideAt == 6)
        do { let changed = v.tick(now: 6); #expect(changed) }
        v.hideWhilePaused = false                  // the preference changed while paused
        #expect(v.visible && v.hideAt == nil)
        do { let changed = v.tick(now: 60); #expect(!changed) }
    }

    @Test("The default is 2 s: between what users call too long (3 s) and too short (0.5 s)")
    func defaultDuration() {
        #expect(ControlsVisibility.defaultDisplayDuration > 0.5 && ControlsVisibility.defaultDisplayDuration < 3)
    }
}
