import Foundation

/// The source tree the tests were built from: the folder above this file that holds Package.swift.
/// Threading: constants.
enum Repository {
    static let root: URL = {
        var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path),
              folder.path != "/" {
            folder.deleteLastPathComponent()
        }
        return folder
    }()

    static func file(_ path: String) -> URL { root.appendingPathComponent(path) }
}
