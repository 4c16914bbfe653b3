import Foundation
import ReelTestSupport
import Testing

/// The rest of the remote through real D-Bus clients (`gdbus call` and `gdbus monitor`) on the
/// desktop's session bus: the queue as MPRIS's track list (read, played, edited, signalled, and
/// the queue panel following), fullscreen set from the remote and announced when a key ends
/// it, and the pictures given as `mpris:artUrl`, decoded by FFmpeg and compared with FFmpeg's
/// own pictures of the files.
extension MPRISTests {
    static let service = "org.mpris.MediaPlayer2.reel"
    static let trackList = "org.mpris.MediaPlayer2.TrackList"

    /// Calls `method` on Reel's MPRIS object; its reply as gdbus prints it.
    static func call(_ desktop: Desktop, _ method: String, _ arguments: String...) throws -> String {
        try desktop.run(["gdbus", "call", "--session", "--dest", service, "--object-path", "/org/mpris/MediaPlayer2",
                         "--method", method] + arguments).output
    }

    static func property(_ desktop: Desktop, _ interface: String, _ name: String) throws -> String {
        try call(desktop, "org.freedesktop.DBus.Properties.Get", interface, name)
    }

    /// Reel's track ids in `text`, in order.
    static func trackIDs(_ text: String) -> [String] {
        matches(#"'(/io/github/reel/Reel/Track/[0-9]+)'"#, in: text)
    }

    /// The first group of each match of `pattern` in `text`.
    static func matches(_ pattern: String, in text: String) -> [String] {
        let regex = try! NSRegularExpression(pattern: pattern)
        return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).map {
            String(text[Range($0.range(at: 1), in: text)!])
        }
    }

    /// The `mpris:trackid` of the player's Metadata.
    static func playing(_ desktop: Desktop) throws -> String {
        trackIDs(try property(desktop, "org.mpris.MediaPlayer2.Player", "Metadata")).first ?? ""
    }

    static func tracks(_ desktop: Desktop) throws -> [String] { trackIDs(try property(desktop, trackList, "Tracks")) }

    static func metadata(_ desktop: Desktop, _ tracks: [String]) throws -> String {
        try call(desktop, "\(trackList).GetTracksMetadata", "@ao [\(tracks.map { "'\($0)'" }.joined(separator: ", "))]")
    }

    static func url(_ path: String) -> String { URL(fileURLWithPath: path).absoluteString }
    static func name(_ path: String) -> String { (path as NSString).lastPathComponent }

    /// A picture file decoded by FFmpeg: its size, and how far its grey levels spread (a blank
    /// picture has none).
    static func decode(_ file: String) throws -> (width: Int, height: Int, spread: Double) {
        let size = try Command.run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "stream=width,height",
                                    "-of", "csv=p=0", file]).output.trimmingCharacters(in: .whitespacesAndNewlines)
            .split(separator: ",").compactMap { Int($0) }
        let grey = [UInt8](try Command.run(["ffmpeg", "-v", "error", "-nostdin", "-i", file, "-frames:v", "1",
                                           "-f", "rawvideo", "-pix_fmt", "gray", "-"]).stdout)
        let mean = grey.reduce(0.0) { $0 + Double($1) } / Double(max(grey.count, 1))
        let deviation = (grey.reduce(0.0) { $0 + (Double($1) - mean) * (Double($1) - mean) } / Double(max(grey.count, 1))).squareRoot()
        return (size.first ?? 0, size.dropFirst().first ?? 0, deviation)
    }

    /// The picture `mpris:artUrl` names for `track`, once it is given; its path.
    static func art(_ desktop: Desktop, _ track: String, log: String) throws -> String {
        var found = ""
        try Desktop.wait("a picture for \(track)", log: log) {
            found = matches(#"'mpris:artUrl': <'file://([^']+)'>"#, in: try metadata(desktop, [track])).first ?? ""
            return !found.isEmpty
        }
        return found.removingPercentEncoding ?? found
    }

    @Test("The queue is the track list: read, played and edited over D-Bus, each change signalled; fullscreen from the remote and back; pictures for the desktop")
    func trackListFullscreenAndArt() throws {
        let film = try Fixtures.path(.longSmall), song = try Fixtures.path(.songWithCover)
        let clip = try Fixtures.path(.h264MP4), added = try Fixtures.path(.videoOnly)
        let sound = try Fixtures.path(.audioOnly)
        try SharedDesktop.standard.use { desktop in
            let app = try ReelApp(on: desktop, arguments: [clip])
            defer { app.stop() }
            try Desktop.wait("the first file", log: app.log) { app.title.contains(Self.name(clip)) }
            let monitorLog = desktop.home.appendingPathComponent("monitor-\(UUID().uuidString.prefix(8)).log").path
            try desktop.start(["gdbus", "monitor", "--session", "--dest", Self.service], log: monitorLog)
            func heard() -> String { (try? String(contentsOfFile: monitorLog, encoding: .utf8)) ?? "" }
            try Desktop.wait("the monitor watching Reel", timeout: 10) { heard().contains("The name \(Self.service) is owned by") }
            #expect(try Self.property(desktop, "org.mpris.MediaPlayer2", "HasTrackList").contains("true"))
            #expect(try Self.property(desktop, Self.trackList, "CanEditTracks").contains("true"))

            // A new queue (the file manager opening three files) replaces the list, in order.
            try desktop.run([ReelApp.binary, film, song, clip])
            try Desktop.wait("the new queue's first file", log: app.log) { app.title.contains(Self.name(film)) }
            var tracks: [String] = []
            try Desktop.wait("three tracks") { tracks = try Self.tracks(desktop); return tracks.count == 3 }
            try Desktop.wait("TrackListReplaced", timeout: 10) {
                // gdbus names the type of an array's first element only.
                heard().contains("TrackList.TrackListReplaced ([objectpath \(tracks.map { "'\($0)'" }.joined(separator: ", "))], objectpath '\(tracks[0])')")
            }
            try Desktop.wait("Tracks invalidated", timeout: 10) { heard().contains("('\(Self.trackList)', @a{sv} {}, ['Tracks'])") }
            let listed = try Self.metadata(desktop, tracks)
            #expect(Self.matches(#"'xesam:url': <'([^']+)'>"#, in: listed) == [film, song, clip].map(Self.url), "\(listed)")
            let titles = Self.matches(#"'xesam:title': <'([^']+)'>"#, in: listed)
            #expect(titles.count == 3 && zip(titles, [film, song, clip]).allSatisfy {
                $0.contains((Self.name($1) as NSString).deletingPathExtension)
            }, "titles \(titles)")
            try Desktop.wait("the playing item's track id", log: app.log) {
                try Self.playing(desktop) == tracks[0]
            }

            // A key frame of the film, a tenth of the way in, as FFmpeg decodes that frame.
            let filmArt = try Self.art(desktop, tracks[0], log: app.log)
            let picture = try Self.decode(filmArt)
            #expect(picture.width == 512 && picture.height == 384 && picture.spread > 20, "\(filmArt): \(picture)")
            let keyFrames = try Command.run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-skip_frame", "nokey",
                                             "-show_entries", "frame=pts_time", "-of", "csv=p=0", film]).output
                .split(separator: "\n").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
            let tenth = (try Self.duration(film)) / 10
            let key = try #require(keyFrames.min { abs($0 - tenth) < abs($1 - tenth) })
            let oracle = desktop.home.appendingPathComponent("film-key-frame.png").path
            try PictureOracle.convert(film, frame: Int((key * 30).rounded()),
                                      .init(matrix: "bt601", range: "tv", kernel: "bicubic", displaySize: "512:384"), to: oracle)
            // About 28.5 dB (two bicubic upscalings of testsrc2's sharp edges differ); the frames
            // just before and after it score under 18, the first frame 12.
            let psnr = try PictureOracle.psnr(filmArt, oracle)
            #expect(psnr > 25, "the film's picture against FFmpeg's frame at \(key) s: \(psnr) dB")

            // GoTo plays the song; its picture is its cover, the image the file carries.
            _ = try Self.call(desktop, "\(Self.trackList).GoTo", "'\(tracks[1])'")
            try Desktop.wait("the song playing", log: app.log) {
                try Self.playerctl(desktop, ["metadata", "xesam:url"]) == Self.url(song)
                    && Self.playerctl(desktop, ["status"]) == "Playing"
            }
            try Desktop.wait("the window to show it") { app.title.contains("Test Song") }
            #expect(try Self.playing(desktop) == tracks[1])
            _ = try Self.playerctl(desktop, ["pause"])
            // What became known as it opened (its tags, its length) is signalled.
            try Desktop.wait("TrackMetadataChanged for the song", timeout: 10) {
                heard().contains("TrackList.TrackMetadataChanged (objectpath '\(tracks[1])'")
            }
            let songArt = try Self.art(desktop, tracks[1], log: app.log)
            let cover = try Command.run(["ffmpeg", "-v", "error", "-nostdin", "-i", song, "-map", "0:v", "-frames:v", "1",
                                         "-f", "rawvideo", "-pix_fmt", "rgb24", "-"]).stdout
            let art = try Command.run(["ffmpeg", "-v", "error", "-nostdin", "-i", songArt, "-frames:v", "1",
                                       "-f", "rawvideo", "-pix_fmt", "rgb24", "-"]).stdout
            #expect(art.count == 300 * 300 * 3 && art == cover, "\(songArt) is not the song's cover (\(art.count) bytes)")
            #expect(try Self.decode(songArt).spread > 20)

            // Fullscreen from the remote; F takes the window out again, and the remote hears of it.
            _ = try Self.call(desktop, "org.freedesktop.DBus.Properties.Set", "org.mpris.MediaPlayer2", "Fullscreen", "<true>")
            try Desktop.wait("fullscreen", timeout: 10) { try app.geometry().width == desktop.width }
            try Desktop.wait("Fullscreen announced", timeout: 10) { heard().contains("'Fullscreen': <true>") }
            #expect(try Self.property(desktop, "org.mpris.MediaPlayer2", "Fullscreen").contains("true"))
            let view = try app.element(named: "Video", timeout: 5)
            try desktop.click(view.x + 5, view.y + 5)   // the window has the keys
            try desktop.key("f")
            try Desktop.wait("out of fullscreen", timeout: 10) { try app.geometry().width < desktop.width }
            try Desktop.wait("leaving fullscreen announced", timeout: 10) { heard().contains("'Fullscreen': <false>") }

            // AddTrack after the film: signalled with its place, and in the queue panel.
            _ = try Self.call(desktop, "\(Self.trackList).AddTrack", "'\(Self.url(added))'", "'\(tracks[0])'", "false")
            try Desktop.wait("four tracks") { tracks = try Self.tracks(desktop); return tracks.count == 4 }
            try Desktop.wait("TrackAdded", timeout: 10) {
                heard().contains("TrackList.TrackAdded (") && heard().contains("objectpath '\(tracks[1])'>")
                    && heard().contains("}, objectpath '\(tracks[0])')")
            }
            #expect(Self.matches(#"'xesam:url': <'([^']+)'>"#, in: try Self.metadata(desktop, tracks))
                    == [film, added, song, clip].map(Self.url))
            #expect(try Self.playing(desktop) == tracks[2], "adding moved what plays")
            try app.click(try app.revealHeader(showing: "Queue"))
            var rows = try QueueWindowTests.rows(app, count: 4)
            #expect(rows == [Self.name(film), Self.name(added), Self.name(song) + " (playing)", Self.name(clip)], "rows: \(rows)")

            // RemoveTrack takes the film out.
            _ = try Self.call(desktop, "\(Self.trackList).RemoveTrack", "'\(tracks[0])'")
            try Desktop.wait("TrackRemoved", timeout: 10) { heard().contains("TrackList.TrackRemoved (objectpath '\(tracks[0])',)") }
            #expect(try Self.tracks(desktop) == Array(tracks.dropFirst()))
            rows = try QueueWindowTests.rows(app, count: 3)
            #expect(rows == [Self.name(added), Self.name(song) + " (playing)", Self.name(clip)], "rows: \(rows)")

            // Sound without cover art, added at the end and played at once, has no picture:
            // pictures are made one at a time in order, so once the next item's is there, one
            // for the sound would have been too.
            _ = try Self.call(desktop, "\(Self.trackList).AddTrack", "'\(Self.url(sound))'", "'\(tracks[3])'", "true")
            try Desktop.wait("the sound playing", log: app.log) { app.title.contains(Self.name(sound)) }
            try Desktop.wait("four tracks again") { tracks = try Self.tracks(desktop); return tracks.count == 4 }
            #expect(try Self.playing(desktop) == tracks[3])
            _ = try Self.call(desktop, "\(Self.trackList).GoTo", "'\(tracks[0])'")
            let addedArt = try Self.decode(try Self.art(desktop, tracks[0], log: app.log))
            #expect(addedArt.width == 512 && addedArt.height == 384 && addedArt.spread > 20, "\(addedArt)")
            let soundMetadata = try Self.metadata(desktop, [tracks[3]])
            #expect(soundMetadata.contains(Self.url(sound)) && !soundMetadata.contains("mpris:artUrl"), "\(soundMetadata)")
        }
    }
}
