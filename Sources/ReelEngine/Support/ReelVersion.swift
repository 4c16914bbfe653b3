/// The engine's version, reported by `reel-tool --version` and in HTTP user agents.
/// Threading: a constant.
public enum ReelVersion {
    public static let string = "0.1.0"
}
