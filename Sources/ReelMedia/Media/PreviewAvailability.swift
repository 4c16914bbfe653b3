/// Whether a second, independent reader of a source — the hover previews' own decoder — may
/// open it, and if not, why (in words a window can show).
/// Threading: a value type.
public enum PreviewAvailability: Sendable, Equatable {
    case available
    case unavailable(reason: String)
}

extension MediaSource {
    /// The one place that decides whether previews may read this source.
    ///
    /// Local files: yes; a second file handle costs nothing and the page cache serves both.
    /// Remote media: no. Each hover would open another HTTP connection and fetch a key frame
    /// (megabytes for HD) beside the playing stream, competing with it for bandwidth; some
    /// servers also limit connections per client. Once a local cache of the stream exists,
    /// this is where cached ranges can be allowed.
    public var previewAvailability: PreviewAvailability {
        switch location {
        case .file: .available
        case .remote: .unavailable(reason: tr("No preview while streaming"))
        }
    }
}
