import Foundation
import ReelTestSupport
import Testing

/// Damaged media of every container the engine reads, through `reel-tool info`, `frame` and
/// `play`: a bounded run of scripts/fuzz.sh. Every run must end in success or a clean JSON
/// error; the script keeps a crashing, hanging or uncleanly exiting input with its command and
/// stderr. A run that outlasts the script's limit counts as a hang only if it outlasts four
/// times that limit again, alone, so a busy machine does not make one.
@Suite("Fuzzing")
struct FuzzTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("scripts/fuzz.sh").path

    @Test("60 damaged files: no crash, no hang, no unclean exit")
    func boundedRun() throws {
        let out = Fixtures.directory.appendingPathComponent("fuzz-run-\(getpid())")
        try? FileManager.default.removeItem(at: out)
        let result = try Command.run(
            ["bash", Self.script, "--files", "60", "--seed", "1", "--timeout", "60",
             "--tool", ReelToolTests.binary, "--out", out.path,
             // Two files at once: each run is mostly a short process's start-up, and a run that
             // outlasts the limit beside another is run again alone before it counts as a hang.
             "--jobs", "2",
             // A sanitized reel-tool (scripts/sanitize.sh) maps terabytes of shadow memory and
             // cannot run under an address-space limit.
             "--memory", Self.sanitized ? "0" : "4096",
             // The seeds are remade only when their recipe changes.
             "--seeds", Fixtures.directory.appendingPathComponent("fuzz-seeds").path],
            check: false)
        let summary = result.output.split(separator: "\n").last.map(String.init) ?? ""
        let counts = Self.counts(in: summary)
        #expect(counts["files"] == 60, "no summary: \(summary) \(result.errors.suffix(2000))")
        #expect(counts["runs"] == 180, "\(summary)")
        let failures = (counts["crashes"] ?? -1) + (counts["hangs"] ?? -1) + (counts["unclean"] ?? -1)
        #expect(failures == 0 && result.status == 0, "\(summary)\n\(Self.kept(in: out))")
        if failures == 0 && result.status == 0 { try? FileManager.default.removeItem(at: out) }
    }

    static var sanitized: Bool {
        let environment = ProcessInfo.processInfo.environment
        return environment["ASAN_OPTIONS"] != nil || environment["TSAN_OPTIONS"] != nil
    }

    /// "files 60, runs 180, ok 150, ..." as a table of numbers.
    static func counts(in summary: String) -> [String: Int] {
        var table: [String: Int] = [:]
        let words = summary.replacingOccurrences(of: ",", with: " ").split(separator: " ")
        for (word, next) in zip(words, words.dropFirst()) {
            if let n = Int(next) { table[String(word)] = n }
        }
        return table
    }

    /// Each kept input with how it was made, the command and the head of its stderr.
    static func kept(in out: URL) -> String {
        let kept = out.appendingPathComponent("kept")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: kept.path).sorted()) ?? []
        return names.map { name in
            let dir = kept.appendingPathComponent(name)
            let files = (try? FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()) ?? []
            let notes = files.filter { $0.hasSuffix(".txt") || $0.hasSuffix(".stderr") }.map { file in
                let text = (try? String(contentsOf: dir.appendingPathComponent(file), encoding: .utf8)) ?? ""
                return "-- \(file):\n" + text.prefix(3000)
            }
            return "== kept \(dir.path)\n" + notes.joined(separator: "\n")
        }.joined(separator: "\n")
    }
}
