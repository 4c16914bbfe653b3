/// Probes media without playing it: container, duration, streams, metadata, chapters (and,
/// for HDR video whose container does not say it, the first picture's HDR metadata).
/// Threading: `inspect` blocks the calling thread on I/O (bounded by the network timeout);
/// call it off any UI thread.
public enum MediaInspector {
    public static func inspect(_ source: MediaSource) throws(PlayerError) -> MediaInfo {
        FFmpegLog.configure()
        let input = try MediaInput(source: source, interrupt: InterruptFlag())
        defer { input.close() }
        return MediaProbe.completingHDR(MediaProbe.info(of: input), input: input)
    }
}
