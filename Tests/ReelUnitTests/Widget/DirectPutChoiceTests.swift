@testable import ReelGtk
import Testing

/// When the CPU path on X11 puts pictures straight into the window, and which windows it may
/// put them into.
@Suite("X11 direct put")
struct DirectPutChoiceTests {
    @Test("Used for the CPU path on X11 only, unless the variable turns it off")
    func choice() {
        #expect(DirectPutChoice.decide(path: .software, isX11: true, environment: nil).isUsed)
        #expect(DirectPutChoice.decide(path: .software, isX11: true, environment: "1").isUsed)
        #expect(!DirectPutChoice.decide(path: .software, isX11: false, environment: nil).isUsed)
        #expect(!DirectPutChoice.decide(path: .gl, isX11: true, environment: nil).isUsed)
        for off in ["0", "no", "FALSE", "off"] {
            let choice = DirectPutChoice.decide(path: .software, isX11: true, environment: off)
            #expect(!choice.isUsed, "\(off)")
            #expect(choice.reason.contains("REEL_X11_DIRECT_PUT"))
        }
    }

    @Test("On a composited screen only windows with square corners (fullscreen, maximised, tiled) take puts")
    func corners() {
        #expect(DirectPutChoice.windowAllows(composited: false, filling: false))
        #expect(DirectPutChoice.windowAllows(composited: false, filling: true))
        #expect(DirectPutChoice.windowAllows(composited: true, filling: true))
        #expect(!DirectPutChoice.windowAllows(composited: true, filling: false))
    }
}
