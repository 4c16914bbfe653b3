import Foundation
import ReelTestSupport

/// Work done when the test process ends: what a suite shares (a desktop, a running app) has
/// no end of its own, and its folders under /tmp would stay behind. (Its processes are reaped
/// in any case; see `SoundServer.reap`.)
/// Threading: any thread; the actions run on the exiting thread.
enum ProcessExit {
    private static let actions = Locked([@Sendable () -> Void]())

    static func run(_ action: @escaping @Sendable () -> Void) {
        let first = actions.withLock { list in list.append(action); return list.count == 1 }
        if first { atexit { ProcessExit.runAll() } }
    }

    private static func runAll() {
        for action in actions.withLock({ $0 }) { action() }
    }
}
