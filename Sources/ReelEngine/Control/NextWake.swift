/// The earliest of the moments the control loop's watchers want to look again (mpv's
/// `mp_set_timeout`: each step lowers the loop's next timeout); none: only a message can
/// change what they watch.
/// Threading: a value used on the control thread.
struct NextWake {
    private(set) var earliest: HostTime?

    /// Looks again at `time` too (nothing for nil).
    mutating func at(_ time: HostTime?) {
        guard let time else { return }
        if let earliest, earliest <= time { return }
        earliest = time
    }
}
