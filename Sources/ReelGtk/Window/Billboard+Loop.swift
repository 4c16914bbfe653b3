import ReelEngine

/// The A-B key's messages: what the loop is now, as the key made it.
/// Threading: main thread only.
extension Billboard {
    /// "Loop start 1:23", "Loop 1:23–1:31" or "Loop cleared"; times shaped by the media's
    /// `duration` as the time labels are.
    public func loop(_ span: LoopSpan?, duration: Double?) {
        show(Self.loopText(span, duration: duration), icon: "media-playlist-repeat-symbolic")
    }

    static func loopText(_ span: LoopSpan?, duration: Double?) -> String {
        guard let span else { return tr("Loop cleared") }
        let start = TimeText.elapsed(span.start, reference: duration)
        guard let end = span.end else {
            // Translators: %@ is the time where the A-B loop starts, such as 1:23.
            return String(format: tr("Loop start %@"), start)
        }
        // Translators: the A-B loop from the first time to the second, such as 1:23–1:31.
        return String(format: tr("Loop %@–%@"), start, TimeText.elapsed(end, reference: duration))
    }
}
