import Foundation

/// What Reel changes in a DASH manifest before FFmpeg's demuxer reads it, as plain text.
/// FFmpeg treats every `type="dynamic"` manifest as live: it starts a minute before the end of
/// the timeline, cannot seek, and asks for segments past the last one for ever. A dynamic
/// manifest that gives `mediaPresentationDuration` has an end (a live event that is over, as
/// packagers leave it): every segment is listed, and it is played as the static presentation
/// it now is, from the start, seekable, cached. One without a duration is live and left alone.
/// Threading: pure.
enum DashManifest {
    /// The largest manifest read: far above real ones (a two-hour film with a segment list of
    /// one entry per second is about a megabyte), and a bound on a server sending without end.
    static let largest = 16 << 20

    /// Whether `data` starts as a DASH manifest does (an `<MPD` element near its start).
    static func isManifest(_ data: Data) -> Bool {
        let head = String(decoding: data.prefix(4096), as: UTF8.self)
        return head.range(of: "<MPD", options: .caseInsensitive) != nil
    }

    /// The manifest as the demuxer is to read it: `text` with the root's type made static when
    /// it is a dynamic presentation with an end; nil when it is to be read as it is.
    static func finished(_ text: String) -> String? {
        guard let root = root(of: text), root.range(of: "mediaPresentationDuration=") != nil,
              let type = root.range(of: dynamicType, options: .regularExpression) else { return nil }
        return text.replacingCharacters(in: type, with: #"type="static""#)
    }

    /// Whether the manifest is live: dynamic without a duration (not kept offline).
    static func isLive(_ text: String) -> Bool {
        guard let root = root(of: text) else { return false }
        return root.range(of: dynamicType, options: .regularExpression) != nil
            && root.range(of: "mediaPresentationDuration=") == nil
    }

    private static let dynamicType = #"type\s*=\s*["']dynamic["']"#

    /// The attributes of the root `MPD` element.
    private static func root(of text: String) -> Substring? {
        guard let open = text.range(of: "<MPD", options: .caseInsensitive),
              let close = text[open.upperBound...].firstIndex(of: ">") else { return nil }
        return text[open.upperBound..<close]
    }
}
