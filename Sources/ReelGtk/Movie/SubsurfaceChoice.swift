/// Whether the CPU path puts the picture on a Wayland subsurface of its own (converted straight
/// into shared memory the compositor reads) rather than into GTK's window, where GTK 4.8's cairo
/// renderer on Wayland clears and composites its whole buffer in the process for each picture.
/// GL draws through GTK; X11 has no subsurfaces (its server does that copy).
/// `REEL_WAYLAND_SUBSURFACE=0` turns it off, for comparison.
/// Threading: a value type; `decide` is a pure function of what it is given.
public struct SubsurfaceChoice: Sendable, Equatable {
    public let isUsed: Bool
    /// Why, in words for `--report`.
    public let reason: String

    public static func decide(path: VideoOutput.Path, isWayland: Bool, environment: String?) -> SubsurfaceChoice {
        guard path == .software else { return SubsurfaceChoice(isUsed: false, reason: "pictures are drawn with OpenGL") }
        guard isWayland else { return SubsurfaceChoice(isUsed: false, reason: "not a Wayland display") }
        if EnvironmentSwitch.turnsOff(environment) {
            return SubsurfaceChoice(isUsed: false, reason: "turned off by REEL_WAYLAND_SUBSURFACE")
        }
        return SubsurfaceChoice(isUsed: true, reason: "a Wayland subsurface of the picture's own")
    }
}
