import Foundation

/// nginx on 127.0.0.1 serving a folder of test media, with Range requests as real servers do.
/// Started once per test process on a free port, stopped when the process ends.
/// Threading: `shared()` from any test thread; the first call starts the server.
final class WebServer: Sendable {
    let port: Int
    let root: URL

    private static let state = Locked<Result<WebServer, Error>?>(nil)

    static func shared() throws -> WebServer {
        let result: Result<WebServer, Error> = state.withLock { state in
            if let state { return state }
            let fresh = Result { try WebServer() }
            state = fresh
            return fresh
        }
        return try result.get()
    }

    private init() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("reel-test-nginx-\(getpid())")
        root = dir.appendingPathComponent("www")
        for sub in ["www", "tmp", "logs"] {
            try FileManager.default.createDirectory(at: dir.appendingPathComponent(sub), withIntermediateDirectories: true)
        }
        port = try Self.freePort()
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
                application/vnd.apple.mpegurl m3u8; video/mp2t ts;
            }
            default_type application/octet-stream;
            server {
                listen 127.0.0.1:\(port);
                root \(root.path);
                location / { }
            }
        }
        """
        let configPath = dir.appendingPathComponent("nginx.conf").path
        try config.write(toFile: configPath, atomically: true, encoding: .utf8)
        let pid = try Command.spawnDetached(["nginx", "-c", configPath, "-p", dir.path],
                                            log: dir.appendingPathComponent("logs/stderr.log").path)
        SoundServer.reap(when: getpid(), exits: [pid])
        let deadline = Date(timeIntervalSinceNow: 15)
        while !Self.accepts(port) {
            guard Command.isRunning(pid), Date() < deadline else {
                let log = (try? String(contentsOfFile: dir.appendingPathComponent("logs/stderr.log").path, encoding: .utf8)) ?? ""
                throw Command.Failure(command: ["nginx"], result: .init(status: -1, stdout: Data(), stderr: Data(log.utf8)))
            }
            usleep(50_000)
        }
    }

    /// Publishes `file` under `name` and returns its URL.
    func publish(_ file: String, as name: String? = nil) throws -> String {
        let target = root.appendingPathComponent(name ?? (file as NSString).lastPathComponent)
        if !FileManager.default.fileExists(atPath: target.path) {
            try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: file, toPath: target.path)
        }
        return url(name ?? (file as NSString).lastPathComponent)
    }

    /// Publishes `text` under `name` and returns its URL.
    func publish(text: String, as name: String) throws -> String {
        let target = root.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: target, atomically: true, encoding: .utf8)
        return url(name)
    }

    func url(_ name: String) -> String { "http://127.0.0.1:\(port)/\(name)" }

    private static func freePort() throws -> Int {
        let listener = try SilentServer()
        return listener.port
    }

    private static func accepts(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }
}
