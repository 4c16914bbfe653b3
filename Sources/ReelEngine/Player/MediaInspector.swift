/// Probes media without playing it: container, duration, streams, metadata, chapters.
/// Threading: `inspect` blocks the calling thread on I/O (bounded by the network timeout);
/// call it off any UI thread.
public enum MediaInspector {
    public static func inspect(_ source: MediaSource) throws(PlayerError) -> MediaInfo {
        FFmpegLog.configure()
        let input = try MediaInput(source: source, interrupt: InterruptFlag())
        defer { input.close() }
        return MediaProbe.info(of: input)
    }
}
