import Foundation
import ReelTestSupport

/// The fault proxy (scripts/fault-proxy.py) in front of the tests' nginx: drops connections,
/// stalls, fails with a status, trickles, or refuses, as the test writes in its control file;
/// counts requests and body bytes served. Can be stopped and started again on the same port
/// (a server restart). Threading: owned by one test.
final class FaultProxy {
    let port: Int
    let upstream: Int
    private let controlPath: String
    let statsPath: String
    private var pid: Int32?

    struct Stats: Decodable {
        struct Response: Decodable {
            let path: String
            let range: String?
            let bytes: Int
        }
        let requests: Int
        let bytes: Int
        let responses: [Response]
    }

    static let script: String = {
        // Tests/ReelEngineTests/Support/FaultProxy.swift → the package root.
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("scripts/fault-proxy.py").path
    }()

    init(upstream: Int) throws {
        self.upstream = upstream
        port = try LocalPort.free()
        let base = Fixtures.directory.appendingPathComponent("fault-proxy-\(getpid())-\(port)").path
        controlPath = base + "-control.json"
        statsPath = base + "-stats.json"
        try set([:])
        try start()
    }

    deinit { stop() }

    func url(_ name: String) -> String { "http://127.0.0.1:\(port)/\(name)" }

    /// Replaces the faults (see the script for the keys); counts start again.
    func set(_ control: [String: Any]) throws {
        let data = try JSONSerialization.data(withJSONObject: control)
        try data.write(to: URL(fileURLWithPath: controlPath), options: .atomic)
    }

    var stats: Stats {
        get throws {
            try JSONDecoder().decode(Stats.self, from: Data(contentsOf: URL(fileURLWithPath: statsPath)))
        }
    }

    func start() throws {
        let child = try Command.spawnDetached(["python3", Self.script, String(port), String(upstream), controlPath, statsPath])
        Reaper.watch([child])
        try LocalPort.waitUntilAccepting(port, pid: child, name: "fault proxy")
        pid = child
    }

    /// The server goes away: connections are refused until `start`.
    func stop() {
        guard let pid else { return }
        kill(pid, SIGKILL)
        while Command.isRunning(pid) { usleep(10_000) }
        self.pid = nil
    }
}
