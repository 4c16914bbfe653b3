/// The engine's version, reported by `reel-tool --version` and in HTTP user agents. It is the
/// newest release in data/io.github.reel.Reel.metainfo.xml, which software centres show.
/// Threading: a constant.
public enum ReelVersion {
    public static let string = "0.5.0"
}
