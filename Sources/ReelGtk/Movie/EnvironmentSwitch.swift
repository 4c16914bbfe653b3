/// The words that turn one of Reel's drawing variables off (`REEL_WAYLAND_SUBSURFACE=0`,
/// `REEL_X11_DIRECT_PUT=no` …), in any case.
/// Threading: a pure function.
enum EnvironmentSwitch {
    static func turnsOff(_ value: String?) -> Bool {
        guard let value else { return false }
        return ["0", "no", "false", "off"].contains(value.lowercased())
    }
}
