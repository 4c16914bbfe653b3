import Foundation

extension DirectPutChoice {
    @MainActor private static var decided: DirectPutChoice?

    /// The choice for this process, made at the first ask (GTK's display open) and kept: a
    /// server that shares no memory with Reel (MIT-SHM missing, or a remote one) keeps GTK's way.
    @MainActor
    public static func current(for output: VideoOutput) -> DirectPutChoice {
        if let decided { return decided }
        var made = decide(path: output.path, isX11: X11Display.isX11Display,
                          environment: ProcessInfo.processInfo.environment["REEL_X11_DIRECT_PUT"])
        if made.isUsed, X11Display.shared == nil {
            made = DirectPutChoice(isUsed: false, reason: "the X server offers no shared memory (MIT-SHM)")
        }
        decided = made
        return made
    }
}
