/// When the periodic time event is next due, and whether every shown picture is reported.
/// Threading: a value held by the control loop.
struct TimeObserver {
    private(set) var interval: Double
    private(set) var nextEvent = HostTime.now
    var everyFrame: Bool

    init(interval: Double, everyFrame: Bool) {
        self.interval = interval > 0 ? interval : 1
        self.everyFrame = everyFrame
    }

    mutating func setInterval(_ seconds: Double) {
        interval = seconds > 0 ? seconds : 1
        restart()
    }

    /// The next event one interval from now (play starts, or one was just sent).
    mutating func restart() {
        nextEvent = HostTime.now.adding(seconds: interval)
    }

    var isDue: Bool { HostTime.now >= nextEvent }
}
