@testable import ReelGtk
import ReelEngine
import Testing

/// The scrubber's buffered shading: from the play position to the end of its cached stretch.
@Suite("Buffered fill")
struct BufferedFillTests {
    let progress = DownloadProgress(bytes: 600, expected: 1000, ranges: [0..<300, 500..<800])

    @Test("Inside a cached stretch the fill reaches its end; in a gap there is none")
    func level() {
        #expect(BufferedFill.level(progress, position: 10, duration: 100) == 30)
        #expect(BufferedFill.level(progress, position: 60, duration: 100) == 80)
        #expect(BufferedFill.level(progress, position: 40, duration: 100) == nil)
        #expect(BufferedFill.level(DownloadProgress(bytes: 0, expected: nil, ranges: []), position: 0, duration: 100) == nil)
    }
}
