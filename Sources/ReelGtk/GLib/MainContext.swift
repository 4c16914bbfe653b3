import CGtk
import Foundation

/// The GTK main thread, reached from any thread through GLib's main context. Reel never uses
/// libdispatch's main queue or `@MainActor` tasks: GLib's main loop does not drain them. All UI
/// work is entered from GLib callbacks with `MainActor.assumeIsolated`.
/// Threading: `async` from any thread; timers and idles are created and cancelled on the main thread.
public enum MainContext {
    private final class Job: @unchecked Sendable {
        // Safe: run once on the main thread, then released by GLib's destroy notify.
        let body: @MainActor () -> Void
        init(_ body: @escaping @MainActor () -> Void) { self.body = body }
    }

    /// Runs `body` on the main thread: at once when called there (as `g_main_context_invoke`
    /// does, and as the window's own callers expect), else queued to the main loop in order.
    /// Never `g_main_context_invoke` from other threads: it runs the body on the calling thread
    /// whenever that thread can take the main context, as any thread can once the main loop has
    /// ended (an engine event arriving while the app quits).
    public static func async(_ body: @escaping @MainActor () -> Void) {
        if Thread.isMainThread {
            MainActor.assumeIsolated { body() }
            return
        }
        let job = Unmanaged.passRetained(Job(body)).toOpaque()
        g_idle_add_full(G_PRIORITY_DEFAULT, { data in
            let job = Unmanaged<Job>.fromOpaque(data!).takeUnretainedValue()
            MainActor.assumeIsolated { job.body() }
            return reel_source_remove()
        }, job, { data in Unmanaged<Job>.fromOpaque(data!).release() })
    }

    /// Runs `body` on the main thread once what is pending there is done: queued even when
    /// called there, at low priority, after GTK's own work of this turn (a menu that closes
    /// activates its item after it hides).
    public static func later(_ body: @escaping @MainActor () -> Void) {
        let job = Unmanaged.passRetained(Job(body)).toOpaque()
        g_idle_add_full(G_PRIORITY_LOW, { data in
            let job = Unmanaged<Job>.fromOpaque(data!).takeUnretainedValue()
            MainActor.assumeIsolated { job.body() }
            return reel_source_remove()
        }, job, { data in Unmanaged<Job>.fromOpaque(data!).release() })
    }
}

/// A repeating or one-shot GLib timer that can be cancelled; cancels itself when released.
/// Threading: main thread only.
@MainActor
public final class Timer {
    fileprivate var source: guint = 0
    private final class Tick {
        let body: @MainActor () -> Bool
        weak var owner: Timer?
        init(_ body: @escaping @MainActor () -> Bool) { self.body = body }
    }

    /// Calls `body` after `seconds`, then again every `seconds` while it returns true.
    public init(seconds: Double, _ body: @escaping @MainActor () -> Bool) {
        let tick = Tick(body)
        let data = Unmanaged.passRetained(tick).toOpaque()
        source = g_timeout_add_full(G_PRIORITY_DEFAULT, guint(max(1, (seconds * 1000).rounded())), { data in
            let tick = Unmanaged<Tick>.fromOpaque(data!).takeUnretainedValue()
            return MainActor.assumeIsolated {
                let again = tick.body()
                if !again { tick.owner?.source = 0 }   // GLib removes it; nothing left to cancel
                return again
            } ? reel_source_continue() : reel_source_remove()
        }, data, { data in Unmanaged<Tick>.fromOpaque(data!).release() })
        tick.owner = self
    }

    public var isActive: Bool { source != 0 }

    /// Once, after `seconds`.
    public static func once(after seconds: Double, _ body: @escaping @MainActor () -> Void) -> Timer {
        Timer(seconds: seconds) { body(); return false }
    }

    public func cancel() {
        if source != 0 { g_source_remove(source) }
        source = 0
    }

    isolated deinit { cancel() }
}
