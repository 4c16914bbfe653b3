import CFFmpeg

/// What opening remote media needs from the network layer above this module (the engine's disk
/// cache, its relay for adaptive streams and its checks on the playlists a stream opens):
/// `MediaInput` asks it at each step of an open. Local files open without one, which is what
/// keeps libcurl and the cache out of the thumbnailer.
/// Threading: used by the `MediaInput` that holds it, on that input's thread.
package protocol RemoteOpening: AnyObject {
    /// The source's bytes from the cache; nil to open them with FFmpeg's own protocols.
    func openBytes(_ source: MediaSource) throws(PlayerError) -> UnsafeMutablePointer<AVIOContext>?
    /// The demuxer to use where the content probe found nothing or only guessed (a DASH
    /// manifest known by its name or type); nil keeps the probe's answer.
    func demuxer(io: UnsafeMutablePointer<AVIOContext>, url: String, probed: UnsafePointer<AVInputFormat>?,
                 score: Int32) -> UnsafePointer<AVInputFormat>?
    /// Hooks the opening of nested resources (playlists, segments) into `context` before it opens.
    func install(in context: UnsafeMutablePointer<AVFormatContext>)
    /// The address and bytes the demuxer opens: `url` and `io` themselves, or a relay's.
    func demuxerInput(_ url: String, format: UnsafePointer<AVInputFormat>?,
                      io: UnsafeMutablePointer<AVIOContext>) throws(PlayerError) -> (url: String, io: UnsafeMutablePointer<AVIOContext>)
    /// Why the network failed, when it did: the cache's failure, a refused or failed nested
    /// resource, the relay's. Preferred to FFmpeg's own code, which says less.
    var failure: PlayerError? { get }
    /// Why the nested resources were refused or failed (a playlist whose every entry is refused).
    var nestedProblem: PlayerError? { get }
    /// The open has finished: nested resources opened from now on are the demuxer's own reads.
    func opened()
    /// Closes what it holds; true when that closed the input's bytes too (the cache's), false
    /// when they are FFmpeg's to close.
    func close() -> Bool
    /// Waits for more bytes after the demuxer said "try again"; false when there is nothing to
    /// wait on (the bytes are not the cache's).
    func waitForData(interrupt: InterruptFlag) -> Bool
}
