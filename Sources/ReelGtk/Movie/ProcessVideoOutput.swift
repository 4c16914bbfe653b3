import CGtk
import Foundation

extension VideoOutput {
    @MainActor private static var decided: VideoOutput?

    /// The path this process draws pictures on, decided at the first ask (the probe makes one
    /// GL context) and kept: a window's renderer cannot change once it is shown.
    @MainActor
    public static func current(preference: Choice) -> VideoOutput {
        if let decided { return decided }
        let made = decide(preference: preference, environment: ProcessInfo.processInfo.environment["REEL_VIDEO_OUTPUT"],
                          gl: GLProbe.run())
        decided = made
        return made
    }

    /// Decides the path and, when it is software, has GTK draw windows with cairo: GTK's GL
    /// renderer on a software GL would rasterise the whole window on the CPU once more for
    /// every picture. A GSK_RENDERER the user set wins. Call before the first window is shown
    /// (GTK reads the variable once, when it first makes a renderer).
    @MainActor
    @discardableResult
    public static func prepareWindows(preference: Choice) -> VideoOutput {
        let output = current(preference: preference)
        if output.path == .software { g_setenv("GSK_RENDERER", "cairo", 0) }
        return output
    }
}
