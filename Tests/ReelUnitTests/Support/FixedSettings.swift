@testable import ReelApp
import ReelGtk

/// Preferences as a test sets them (Reel's defaults until then).
/// Threading: main thread only.
@MainActor
final class FixedSettings: SessionSettings {
    var autoplay = true
    var resumePlayback: ResumeMode = .resume
    var rememberQueue = true
    var backgroundPlayback = false
    var audioChoices: [String: Int] = [:]
    func audioChoice(for media: String) -> Int? { audioChoices[media] }
}
