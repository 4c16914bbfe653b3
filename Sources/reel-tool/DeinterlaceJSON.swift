import ReelEngine

/// What the engine does to interlaced pictures, as `frame` and `play --json` print it.
/// Threading: pure functions.
enum DeinterlaceJSON {
    static func object(_ status: DeinterlaceStatus) -> [String: Any] {
        var o: [String: Any] = ["mode": status.mode.rawValue, "active": status.isActive]
        if status.isActive {
            o["filter"] = status.filter
            if let rate = status.picturesPerSecond { o["pictures_per_second"] = (rate * 1000).rounded() / 1000 }
            if let tff = status.topFieldFirst { o["field_order"] = tff ? "tff" : "bff" }
        }
        return o
    }
}
