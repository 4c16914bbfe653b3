@testable import ReelEngine
import Testing

@Suite("How a play ends")
struct EndVerdictTests {
    let gone = PlayerError.networkError("Couldn't connect to server (gave up after 4 s)")
    let damaged = PlayerError.corruptData("the file ends early")

    @Test("The demuxer's error ends it, whatever else")
    func demuxError() {
        #expect(EndVerdict.error(demuxError: damaged, downloadFailure: nil, position: 1, duration: 4)?.code == "corrupt_data")
        #expect(EndVerdict.error(demuxError: damaged, downloadFailure: gone, position: 4, duration: 4)?.code == "corrupt_data")
    }

    @Test("A failed download with the end not reached is the network's failure, not the media's end")
    func downloadGoneEarly() {
        #expect(EndVerdict.error(demuxError: nil, downloadFailure: gone, position: 0.43, duration: 4)?.code == "network_error")
        #expect(EndVerdict.error(demuxError: nil, downloadFailure: gone, position: 3.4, duration: 4)?.code == "network_error")
    }

    @Test("At the end, or with nothing failed, or no length known, it is a clean end")
    func clean() {
        #expect(EndVerdict.error(demuxError: nil, downloadFailure: gone, position: 3.96, duration: 4) == nil)
        #expect(EndVerdict.error(demuxError: nil, downloadFailure: nil, position: 0.43, duration: 4) == nil)
        #expect(EndVerdict.error(demuxError: nil, downloadFailure: gone, position: 0.43, duration: nil) == nil)
    }
}
