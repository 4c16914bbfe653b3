import Foundation

/// Asks yt-dlp what video a web page holds (`yt-dlp -J`, as mpv's ytdl hook does) and picks the
/// format Reel plays. yt-dlp runs as a child in a process group of its own, its output in
/// files (a page's JSON can be megabytes), and is stopped with everything it started when the
/// time is up or the opening is cancelled: nothing is left running.
/// Threading: `resolve` blocks the calling (loader) thread; `interrupt` may be set from any.
enum PageResolver {
    static func resolve(_ address: String, options: WebPageOptions, interrupt: InterruptFlag,
                        decodes: (String) -> Bool) throws(PlayerError) -> (page: WebPage, video: PageFormat, audio: PageFormat?) {
        guard var page = try ask(address, options: options, interrupt: interrupt) else {
            throw .webPageFailed("no video found on \(address)")
        }
        // A list of other pages (a channel, a playlist): its first is asked about in turn.
        if page.formats.isEmpty, let first = page.entries.first {
            guard let video = try ask(first, options: options, interrupt: interrupt), !video.formats.isEmpty else {
                throw .webPageFailed("no video found on \(first)")
            }
            page = WebPage(address: address, title: video.title, chapters: video.chapters, formats: video.formats,
                           duration: video.duration, entries: page.entries)
        }
        guard let chosen = FormatChoice.choose(page.formats, maxHeight: options.maxHeight, asked: options.format,
                                               decodes: decodes) else {
            throw .webPageFailed("none of the page's formats is one Reel can play")
        }
        return (page, chosen.video, chosen.audio)
    }

    /// What yt-dlp says of `address` (a list flat: its entries' addresses, not each one asked).
    private static func ask(_ address: String, options: WebPageOptions, interrupt: InterruptFlag) throws(PlayerError) -> WebPage? {
        let output = try run([options.program, "-J", "--no-warnings", "--no-progress", "--no-playlist", "--flat-playlist",
                              "--no-cache-dir", "--", address], timeout: options.timeout, interrupt: interrupt)
        return WebPage(json: output, address: address)
    }

    /// yt-dlp's standard output; its reason ("ERROR: …") as the error when it fails.
    private static func run(_ arguments: [String], timeout: Double, interrupt: InterruptFlag) throws(PlayerError) -> Data {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("reel-page-\(UUID().uuidString)")
        do { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) } catch {
            throw .internalError("cannot make a temporary folder: \(error.localizedDescription)")
        }
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("out").path, err = folder.appendingPathComponent("err").path
        let child = try ChildGroup.spawn(arguments, stdout: out, stderr: err)
        let finished = child.wait(timeout: timeout, interrupt: interrupt)
        guard let status = finished else {
            child.stopAll()
            if interrupt.isAborted { throw .networkError("opening cancelled") }
            throw .webPageFailed("\(arguments[0]) gave no answer within \(Int(timeout)) s")
        }
        // What yt-dlp left behind (an ffprobe it started) goes with it.
        child.stopAll()
        guard status == 0 else {
            let text = (try? String(contentsOfFile: err, encoding: .utf8)) ?? ""
            let reason = text.split(separator: "\n").last { $0.hasPrefix("ERROR:") }
                .map { $0.dropFirst("ERROR:".count).trimmingCharacters(in: .whitespaces) }
            throw .webPageFailed(reason ?? "\(arguments[0]) failed (exit status \(status))")
        }
        return FileManager.default.contents(atPath: out) ?? Data()
    }
}
