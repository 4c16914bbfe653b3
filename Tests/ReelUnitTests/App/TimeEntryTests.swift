@testable import ReelApp
import Testing

/// Go to Time's reading of what people type, and where each lands, without a window: the
/// forms the issue names, fractions with a point or a comma, and the text it refuses.
/// Threading: stateless, runs anywhere.
@Suite("Go to Time: reading a time")
struct TimeEntryTests {
    static func go(_ text: String, length: Double? = 7200, rate: Double? = 25) -> Result<Double, TimeEntry.Problem> {
        TimeEntry.resolve(text, length: length, frameRate: rate)
    }

    @Test("Hours, minutes and seconds; minutes and seconds; seconds; each with a fraction")
    func times() {
        #expect(Self.go("1:23:45") == .success(5025))
        #expect(Self.go("83:45") == .success(5025))
        #expect(Self.go("5025") == .success(5025))
        #expect(Self.go(" 0:01.5 ") == .success(1.5))
        #expect(Self.go("1:05,25") == .success(65.25))
        #expect(Self.go("0:0:7") == .success(7))
        #expect(Self.go("12.5") == .success(12.5))
    }

    @Test("A frame number lands in the middle of its frame; a share of the length; the end itself")
    func framesAndShares() {
        #expect(Self.go("#1234") == .success(1234.5 / 25))
        #expect(Self.go("# 0") == .success(0.5 / 25))
        #expect(Self.go("50%") == .success(3600))
        #expect(Self.go("12,5 %") == .success(900))
        #expect(Self.go("100 %") == .success(7200))
        #expect(Self.go("2:00:00") == .success(7200))
    }

    @Test("What it cannot go to, and why")
    func refused() {
        #expect(Self.go("") == .failure(.empty))
        #expect(Self.go("   ") == .failure(.empty))
        for bad in ["abc", "1:60", "1:2:75", "1::2", ":30", "1:30:", "-5", "1.2.3", "#", "#12a", "150%", "%", "1:2:3:4", "1:123"] {
            guard case .failure(.unreadable) = Self.go(bad) else {
                Issue.record("“\(bad)” was read as \(Self.go(bad))")
                continue
            }
        }
        #expect(Self.go("2:00:01") == .failure(.beyondEnd(length: 7200)))
        #expect(Self.go("#1234", rate: nil) == .failure(.noFrameRate))
        #expect(Self.go("50%", length: nil) == .failure(.noLength))
        // A live stream without a length still goes to a time.
        #expect(Self.go("1:00", length: nil) == .success(60))
    }

    @Test("Each refusal says what to type")
    func messages() {
        #expect(TimeEntry.Problem.unreadable("abc").message.contains("“abc”"))
        #expect(TimeEntry.Problem.beyondEnd(length: 3723).message.contains("1:02:03"))
        #expect(!TimeEntry.Problem.empty.message.isEmpty)
    }
}
