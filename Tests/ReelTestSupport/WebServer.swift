import Foundation

/// nginx on 127.0.0.1 serving a folder of test media, with Range requests as real servers do.
/// Started once per test process on a free port, stopped when the process ends.
/// Threading: `shared()` from any test thread; the first call starts the server.
public final class WebServer: Sendable {
    public let port: Int
    public let root: URL

    private static let instance = Once { try WebServer() }

    public static func shared() throws -> WebServer { try instance.get() }

    private init() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("reel-test-nginx-\(getpid())")
        root = dir.appendingPathComponent("www")
        for sub in ["www", "tmp", "logs"] {
            try FileManager.default.createDirectory(at: dir.appendingPathComponent(sub), withIntermediateDirectories: true)
        }
        port = try LocalPort.free()
        let tmp = dir.appendingPathComponent("tmp").path
        let config = """
        daemon off;
        user root;
        worker_processes 1;
        pid \(dir.path)/nginx.pid;
        error_log \(dir.path)/logs/error.log warn;
        events { worker_connections 64; }
        http {
            access_log \(dir.path)/logs/access.log;
            client_body_temp_path \(tmp)/body;
            proxy_temp_path \(tmp)/proxy;
            fastcgi_temp_path \(tmp)/fastcgi;
            uwsgi_temp_path \(tmp)/uwsgi;
            scgi_temp_path \(tmp)/scgi;
            types {
                video/mp4 mp4; video/x-matroska mkv; video/webm webm; audio/ogg ogg;
                application/vnd.apple.mpegurl m3u8; video/mp2t ts; application/dash+xml mpd; video/iso.segment m4s;
            }
            default_type application/octet-stream;
            server {
                listen 127.0.0.1:\(port);
                root \(root.path);
                location / { }
                # Files without a name extension served as DASH manifests, as some servers do.
                location /typed-dash/ { default_type application/dash+xml; }
                # Served only to requests that name their page as the Referer (hotlink
                # protection, as many video sites have).
                location /pages/guarded/ {
                    if ($http_referer !~ "^http://127\\.0\\.0\\.1:[0-9]+/pages/guarded\\.html$") { return 403; }
                }
            }
        }
        """
        let configPath = dir.appendingPathComponent("nginx.conf").path
        try config.write(toFile: configPath, atomically: true, encoding: .utf8)
        let pid = try Command.spawnDetached(["nginx", "-c", configPath, "-p", dir.path],
                                            log: dir.appendingPathComponent("logs/stderr.log").path)
        Reaper.watch([pid])
        try LocalPort.waitUntilAccepting(port, pid: pid, name: "nginx",
                                         log: dir.appendingPathComponent("logs/stderr.log").path)
    }

    /// Publishes `file` under `name` and returns its URL.
    public func publish(_ file: String, as name: String? = nil) throws -> String {
        let target = root.appendingPathComponent(name ?? (file as NSString).lastPathComponent)
        if !FileManager.default.fileExists(atPath: target.path) {
            try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: file, toPath: target.path)
        }
        return url(name ?? (file as NSString).lastPathComponent)
    }

    /// Publishes `text` under `name` and returns its URL.
    public func publish(text: String, as name: String) throws -> String {
        let target = root.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: target, atomically: true, encoding: .utf8)
        return url(name)
    }

    public func url(_ name: String) -> String { "http://127.0.0.1:\(port)/\(name)" }
}
