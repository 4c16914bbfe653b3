import Foundation

/// Web pages for the tests, served by the test nginx: what yt-dlp's generic extractor reads
/// offline.
/// Threading: call from one test at a time (files are made once, under the server's root).
public enum WebPages {
    /// A page whose HLS master offers a 240-line and a 120-line picture, both with sound.
    public static func twoQualities(_ server: WebServer) throws -> String {
        let folder = server.root.appendingPathComponent("pages/two")
        if !FileManager.default.fileExists(atPath: folder.appendingPathComponent("low.m3u8").path) {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let source = try Fixtures.path(.h264TS)
            try Command.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-i", source, "-c", "copy", "-f", "hls",
                             "-hls_time", "1", "-hls_list_size", "0", "-hls_segment_filename", folder.appendingPathComponent("high%d.ts").path,
                             folder.appendingPathComponent("high.m3u8").path])
            try Command.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-i", source, "-vf", "scale=160:120",
                             "-c:v", "libx264", "-preset", "ultrafast", "-c:a", "copy", "-f", "hls", "-hls_time", "1",
                             "-hls_list_size", "0", "-hls_segment_filename", folder.appendingPathComponent("low%d.ts").path,
                             folder.appendingPathComponent("low.m3u8").path])
        }
        _ = try server.publish(text: """
            #EXTM3U
            #EXT-X-STREAM-INF:BANDWIDTH=300000,RESOLUTION=160x120,CODECS="avc1.64000d,mp4a.40.2"
            low.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=1000000,RESOLUTION=320x240,CODECS="avc1.64001e,mp4a.40.2"
            high.m3u8
            """, as: "pages/two/master.m3u8")
        return try server.publish(text: """
            <!doctype html><html><head><title>Two qualities</title></head><body>
            <video controls><source src="two/master.m3u8" type="application/x-mpegURL"></video></body></html>
            """, as: "pages/two.html")
    }

    /// A page holding two videos (the second a different clip), each in a `<video>` tag.
    public static func twoVideos(_ server: WebServer) throws -> String {
        _ = try server.publish(try Fixtures.path(.h264MP4), as: "pages/films/first.mp4")
        _ = try server.publish(try Fixtures.path(.longSmall), as: "pages/films/second.mp4")
        return try server.publish(text: """
            <!doctype html><html><head><title>Two films</title></head><body>
            <video controls src="films/first.mp4"></video><p>and</p><video controls src="films/second.mp4"></video></body></html>
            """, as: "pages/two-films.html")
    }
}
