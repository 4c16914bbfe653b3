import Foundation
import ReelTestSupport

/// A real HTTP server (Python's http.server, with Range support) that serves one file and sends
/// none of the bytes from `after` up to `through` for `pause` seconds from the first time a
/// response reaches them, or until `release()`: a network that stalls mid-film, for as long as
/// the test needs. Every response is held there, also one that starts past `after`: a player
/// that gives up on a quiet connection and asks again a little further on must not find the
/// data flowing. Bytes from `through` on (an index at the end, read at opening) still come.
/// Started per test, stopped when the test process ends.
/// Threading: owned by one test.
final class StallingServer {
    let port: Int
    private let releasePath: String

    private static let script = #"""
    import http.server, os, socketserver, sys, time
    path, port, after, through, pause, release = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), float(sys.argv[5]), sys.argv[6]
    size = os.path.getsize(path)
    stall_began = []
    class Handler(http.server.BaseHTTPRequestHandler):
        def log_message(self, *args): pass
        def do_GET(self):
            start, end = 0, size - 1
            rng = self.headers.get("Range")
            if rng and rng.startswith("bytes="):
                a, _, b = rng[6:].partition("-")
                start = int(a) if a else size - int(b)
                end = int(b) if a and b else size - 1
                self.send_response(206)
                self.send_header("Content-Range", f"bytes {start}-{end}/{size}")
            else:
                self.send_response(200)
            self.send_header("Accept-Ranges", "bytes")
            self.send_header("Content-Type", "video/mp4")
            self.send_header("Content-Length", str(end - start + 1))
            self.end_headers()
            with open(path, "rb") as f:
                f.seek(start)
                pos = start
                stalled = False  # each response that reaches `after` waits, once
                while pos <= end:
                    chunk = f.read(min(16384, end - pos + 1))
                    if not chunk: break
                    if not stalled and pos + len(chunk) > after and pos < through:
                        stalled = True
                        if not stall_began: stall_began.append(time.monotonic())
                        resume = stall_began[0] + pause
                        while time.monotonic() < resume and not os.path.exists(release):
                            time.sleep(0.02)
                    try:
                        self.wfile.write(chunk)
                    except (BrokenPipeError, ConnectionResetError):
                        return
                    pos += len(chunk)
    class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
        daemon_threads = True
        allow_reuse_address = True
    Server(("127.0.0.1", port), Handler).serve_forever()
    """#

    init(serving file: String, stallAfter after: Int, through: Int, for pause: Double) throws {
        port = try LocalPort.free()
        let scriptPath = Fixtures.directory.appendingPathComponent("stalling-server.py").path
        try Self.script.write(toFile: scriptPath, atomically: true, encoding: .utf8)
        releasePath = Fixtures.directory.appendingPathComponent("stalling-server-\(getpid())-\(port).release").path
        unlink(releasePath)
        let pid = try Command.spawnDetached(["python3", scriptPath, file, String(port), String(after), String(through), String(pause),
                                             releasePath])
        Reaper.watch([pid])
        try LocalPort.waitUntilAccepting(port, pid: pid, name: "python3 \(scriptPath)")
    }

    var url: String { "http://127.0.0.1:\(port)/media.mp4" }

    /// Data flows again, now and for every later response that reaches the stall.
    func release() {
        FileManager.default.createFile(atPath: releasePath, contents: Data())
    }
}
