import Foundation
@testable import ReelApp
import Testing

/// The folder of now-playing pictures stays bounded: the newest are kept, by when they were
/// last written or used.
/// Threading: plain files in a folder of the test's own.
@Suite("Now-playing pictures")
struct NowPlayingArtTests {
    @Test("Pruning keeps the newest pictures and deletes the rest")
    func pruneKeepsNewest() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("reel-art-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // Ten pictures a minute apart; the names run against their age, so that an order by
        // name is not taken for an order by time.
        let now = Date()
        for age in 0..<10 {
            let file = folder.appendingPathComponent("\(9 - age).png")
            try Data("picture \(age)".utf8).write(to: file)
            try FileManager.default.setAttributes([.modificationDate: now.addingTimeInterval(Double(-60 * age))],
                                                  ofItemAtPath: file.path)
        }
        NowPlayingArt.prune(folder, keeping: 4)
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(left == ["6.png", "7.png", "8.png", "9.png"], "left: \(left)")
        // Under the bound, nothing goes.
        NowPlayingArt.prune(folder, keeping: 4)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).count == 4)
    }
}
