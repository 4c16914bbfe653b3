/// The two ways Reel puts pictures on screen, forced through REEL_VIDEO_OUTPUT so that tests
/// run each whatever this machine's GL would choose (here, Mesa's llvmpipe chooses software).
/// Threading: a value type.
enum DrawingPath: String, CaseIterable, Sendable, CustomStringConvertible {
    case software
    case gl

    var environment: [String: String] { ["REEL_VIDEO_OUTPUT": rawValue] }
    var description: String { self == .gl ? "GL path" : "software path" }
}
