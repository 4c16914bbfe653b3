@testable import ReelEngine
import Testing

/// Where the stream cache fetches next and when a transfer gives way, without a server.
@Suite("Stream cache fetch policy")
struct FetchPolicyTests {
    static let kB: Int64 = 1 << 10, MB: Int64 = 1 << 20

    @Test("Reading ahead is refilled once half of it is used; bytes not yet vouched for are fetched where missing")
    func readAhead() {
        let ahead = Self.MB
        // Reader at 0 with 600 kB on disk: more than half of a 1 MB read-ahead is there.
        #expect(FetchPolicy.nextFetch(present: ByteRanges([0..<600 * Self.kB]), from: 0, length: 10 * Self.MB,
                                      validated: true, readAhead: ahead) == nil)
        // 400 kB: less than half; fetch on from where it stops.
        #expect(FetchPolicy.nextFetch(present: ByteRanges([0..<400 * Self.kB]), from: 0, length: 10 * Self.MB,
                                      validated: true, readAhead: ahead) == 400 * Self.kB)
        // Not validated yet: the response must come first, whatever is on disk.
        #expect(FetchPolicy.nextFetch(present: ByteRanges([0..<600 * Self.kB]), from: 0, length: 10 * Self.MB,
                                      validated: false, readAhead: ahead) == 600 * Self.kB)
        // A seek: from where the reader waits.
        #expect(FetchPolicy.nextFetch(present: ByteRanges([0..<600 * Self.kB]), from: 5 * Self.MB, length: 10 * Self.MB,
                                      validated: true, readAhead: ahead) == 5 * Self.MB)
        // At the end nothing is left to fetch for the reader.
        #expect(FetchPolicy.nextFetch(present: ByteRanges([9 * Self.MB..<10 * Self.MB]), from: 9 * Self.MB + 1,
                                      length: 10 * Self.MB, validated: true, readAhead: ahead) == nil)
    }

    @Test("A download of the whole resource fills the gaps behind the reader, then stops")
    func wholeResource() {
        let holes = ByteRanges([0..<Self.MB, 2 * Self.MB..<3 * Self.MB])
        #expect(FetchPolicy.nextFetch(present: holes, from: 2 * Self.MB + 5, length: 3 * Self.MB,
                                      validated: true, readAhead: nil) == Self.MB)
        #expect(FetchPolicy.nextFetch(present: ByteRanges([0..<3 * Self.MB]), from: 0, length: 3 * Self.MB,
                                      validated: true, readAhead: nil) == nil)
        // With a read-ahead the gaps behind are left alone.
        #expect(FetchPolicy.nextFetch(present: holes, from: 2 * Self.MB + 5, length: 3 * Self.MB,
                                      validated: true, readAhead: Self.MB) == nil)
    }

    @Test("A transfer keeps bytes up to what is there already; it stops for a far seek, a full read-ahead or bytes present")
    func admission() {
        let present = ByteRanges([Self.MB..<2 * Self.MB])
        func admit(_ offset: Int64, demand: Int64? = nil, reader: Int64 = 0, ahead: Int64? = 4 * Self.MB) -> FetchPolicy.Admission {
            FetchPolicy.admit(count: 64 * 1024, at: offset, present: present, demand: demand, readerPosition: reader, readAhead: ahead)
        }
        #expect(admit(0) == .write(65536))
        #expect(admit(Self.MB - 1000) == .write(1000), "cut where the present range starts")
        #expect(admit(Self.MB) == .stop, "the bytes are there")
        #expect(admit(0, demand: 100 * Self.kB) == .write(65536), "a seek just ahead is reached by running on")
        #expect(admit(0, demand: 300 * Self.kB) == .stop, "a seek beyond 256 kB ahead needs a new request")
        #expect(admit(500 * Self.kB, demand: 100 * Self.kB) == .stop, "a seek behind needs a new request")
        #expect(admit(5 * Self.MB, reader: Self.MB) == .stop, "4 MB ahead of the reader is enough")
        #expect(admit(5 * Self.MB, reader: Self.MB, ahead: nil) == .write(65536))
    }

    @Test("A quiet transfer gives way when the reader waits past it; one where the reader waits keeps its own timeout")
    func abandon() {
        #expect(!FetchPolicy.shouldAbandon(at: 0, demand: nil, quietFor: 60))
        #expect(FetchPolicy.shouldAbandon(at: 500, demand: 100, quietFor: 0), "the reader went back")
        #expect(FetchPolicy.shouldAbandon(at: 0, demand: Self.MB, quietFor: 0), "the reader went far ahead")
        #expect(FetchPolicy.shouldAbandon(at: 0, demand: 1000, quietFor: 2.5))
        #expect(!FetchPolicy.shouldAbandon(at: 0, demand: 1000, quietFor: 1))
        #expect(!FetchPolicy.shouldAbandon(at: 1000, demand: 1000, quietFor: 30))
    }
}
