/// Whether the CPU path on X11 puts pictures straight into the window while nothing is drawn
/// over them (`X11DirectPut`: converted straight into memory shared with the X server), rather
/// than always through GTK's cairo renderer, which paints each picture into an image of the
/// window and uploads that again. GL draws through GTK; Wayland has its subsurface.
/// `REEL_X11_DIRECT_PUT=0` turns it off, for comparison.
/// Threading: a value type; its functions are pure functions of what they are given.
public struct DirectPutChoice: Sendable, Equatable {
    public let isUsed: Bool
    /// Why, in words for `--report`.
    public let reason: String

    public static func decide(path: VideoOutput.Path, isX11: Bool, environment: String?) -> DirectPutChoice {
        guard path == .software else { return DirectPutChoice(isUsed: false, reason: "pictures are drawn with OpenGL") }
        guard isX11 else { return DirectPutChoice(isUsed: false, reason: "not an X11 display") }
        if EnvironmentSwitch.turnsOff(environment) {
            return DirectPutChoice(isUsed: false, reason: "turned off by REEL_X11_DIRECT_PUT")
        }
        return DirectPutChoice(isUsed: true, reason: "pictures put into the window through shared memory while nothing is over them")
    }

    /// Whether a put may cover the window's corners: a composited screen gives a window of its
    /// own size rounded, see-through corners (GTK's CSD); fullscreen, maximised and tiled
    /// windows, and every window where nothing composites, have square ones.
    public static func windowAllows(composited: Bool, filling: Bool) -> Bool {
        !composited || filling
    }
}
