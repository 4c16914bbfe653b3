/// Keeps an observation alive: releasing the token (or `cancel()`) stops it.
/// Threading: main thread only.
@MainActor
public final class ObservationToken {
    private var stop: (@MainActor () -> Void)?

    init(_ stop: @escaping @MainActor () -> Void) { self.stop = stop }

    public func cancel() {
        stop?()
        stop = nil
    }

    isolated deinit { cancel() }
}

/// Observers in the order they came, each removable by its token.
/// Threading: main thread only.
@MainActor
final class ObserverList<Value> {
    private var observers: [(id: Int, body: @MainActor (Value) -> Void)] = []
    private var nextID = 0

    func add(_ body: @escaping @MainActor (Value) -> Void) -> ObservationToken {
        let id = nextID
        nextID += 1
        observers.append((id, body))
        return ObservationToken { [weak self] in self?.observers.removeAll { $0.id == id } }
    }

    func notify(_ value: Value) {
        // A copy: an observer may cancel itself or add another while being told.
        for observer in observers { observer.body(value) }
    }

    var count: Int { observers.count }
}
