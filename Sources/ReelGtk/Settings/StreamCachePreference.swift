import ReelEngine
import Synchronization

/// The stream-cache preferences as the engine reads them at each open, on its loader thread:
/// a copy the main thread replaces whenever the settings change.
/// Threading: `current` from any thread (a mutex guards it).
final class StreamCachePreference: Sendable {
    private let value: Mutex<StreamCacheOptions>

    init(_ initial: StreamCacheOptions) { value = Mutex(initial) }

    var current: StreamCacheOptions {
        get { value.withLock { $0 } }
        set { value.withLock { $0 = newValue } }
    }
}
