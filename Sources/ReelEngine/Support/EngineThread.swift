import CLinux
import Foundation

/// A dedicated, joinable OS thread for blocking engine work (demux, decode, control).
/// Engine work never runs on Swift's cooperative pool: a blocked decoder there would starve tasks.
/// Each thread carries an owner tag (its player), inherited by the threads it starts, so a
/// player's threads can be counted even while other players run in the same process.
/// Threading: create, then `join()` from any single owner thread (never from the thread itself).
final class EngineThread: @unchecked Sendable {
    typealias Owner = Int

    // Safe: `handle` is written once in init before any other thread can see `self`, then only read.
    private var handle: pthread_t

    private static let live = Locked<[Owner: Int]>([:])
    private static let nextOwner = Locked(1)
    private static let ownerKey: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// A fresh tag for a new player.
    static func newOwner() -> Owner { nextOwner.withLock { $0 += 1; return $0 } }

    /// The tag of the calling thread (0 for threads the engine did not start).
    static var currentOwner: Owner { Int(bitPattern: pthread_getspecific(ownerKey)) }

    /// Threads with this tag that have not finished yet.
    static func liveCount(owner: Owner) -> Int { live.withLock { $0[owner] ?? 0 } }

    /// The nice value the calling thread gives the threads it starts (`startingNiced`), plus one
    /// (0: none given).
    private static let niceKey: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// Runs `body` so that every engine thread it starts on this thread runs at `nice` (work in
    /// the background, such as a picture decoded ahead, that must never slow playback). Those
    /// threads' own threads (FFmpeg's) inherit the value from them, as Linux threads do.
    static func startingNiced<T>(_ nice: Int32, _ body: () throws -> T) rethrows -> T {
        let before = pthread_getspecific(niceKey)
        pthread_setspecific(niceKey, UnsafeRawPointer(bitPattern: Int(nice) + 1))
        defer { pthread_setspecific(niceKey, before) }
        return try body()
    }

    private final class Start {
        let name: String
        let owner: Owner
        let nice: Int32?
        let body: @Sendable () -> Void
        init(name: String, owner: Owner, nice: Int32?, body: @escaping @Sendable () -> Void) {
            self.name = name; self.owner = owner; self.nice = nice; self.body = body
        }
    }

    init(name: String, owner: Owner = EngineThread.currentOwner, body: @escaping @Sendable () -> Void) {
        EngineThread.live.withLock { $0[owner, default: 0] += 1 }
        let given = Int(bitPattern: pthread_getspecific(Self.niceKey))
        let nice = given == 0 ? nil : Int32(given - 1)
        let start = Unmanaged.passRetained(Start(name: name, owner: owner, nice: nice, body: body)).toOpaque()
        var thread = pthread_t()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        pthread_attr_setstacksize(&attributes, 1 << 20)
        let rc = pthread_create(&thread, &attributes, { raw in
            let start = Unmanaged<Start>.fromOpaque(raw!).takeRetainedValue()
            // Linux limits thread names to 15 bytes.
            reel_set_thread_name(String(start.name.prefix(15)))
            if let nice = start.nice { _ = reel_set_thread_nice(nice) }
            pthread_setspecific(EngineThread.ownerKey, UnsafeRawPointer(bitPattern: start.owner))
            start.body()
            EngineThread.live.withLock { $0[start.owner, default: 1] -= 1 }
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

    /// Lets the thread free itself when it ends, for the one case where nobody can join it
    /// (its owner is released on the thread itself).
    func detach() { pthread_detach(handle) }
}
