import CLinux
import Foundation

/// A dedicated, joinable OS thread for blocking engine work (demux, decode, control).
/// Engine work never runs on Swift's cooperative pool: a blocked decoder there would starve tasks.
/// Threading: create, then `join()` from any single owner thread (never from the thread itself).
final class EngineThread: @unchecked Sendable {
    // Safe: `handle` is written once in init before any other thread can see `self`, then only read.
    private var handle: pthread_t

    private final class Start {
        let name: String
        let body: @Sendable () -> Void
        init(name: String, body: @escaping @Sendable () -> Void) { self.name = name; self.body = body }
    }

    init(name: String, body: @escaping @Sendable () -> Void) {
        let start = Unmanaged.passRetained(Start(name: name, body: body)).toOpaque()
        var thread = pthread_t()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        pthread_attr_setstacksize(&attributes, 1 << 20)
        let rc = pthread_create(&thread, &attributes, { raw in
            let start = Unmanaged<Start>.fromOpaque(raw!).takeRetainedValue()
            // Linux limits thread names to 15 bytes.
            reel_set_thread_name(String(start.name.prefix(15)))
            start.body()
            return nil
        }, start)
        pthread_attr_destroy(&attributes)
        precondition(rc == 0, "pthread_create failed: \(rc)")
        handle = thread
    }

    var isCurrent: Bool { pthread_equal(handle, pthread_self()) != 0 }

    func join() {
        precondition(!isCurrent, "a thread cannot join itself")
        pthread_join(handle, nil)
    }
}
