import Foundation

extension SubsurfaceChoice {
    @MainActor private static var decided: SubsurfaceChoice?

    /// The choice for this process, made at the first ask (GTK's display open) and kept: a
    /// compositor without a subcompositor or shared memory falls back to GTK's window.
    @MainActor
    public static func current(for output: VideoOutput) -> SubsurfaceChoice {
        if let decided { return decided }
        var made = decide(path: output.path, isWayland: WaylandConnection.isWaylandDisplay,
                          environment: ProcessInfo.processInfo.environment["REEL_WAYLAND_SUBSURFACE"])
        if made.isUsed, WaylandConnection.shared == nil {
            made = SubsurfaceChoice(isUsed: false, reason: "the compositor offers no wl_subcompositor or wl_shm")
        }
        decided = made
        return made
    }
}
