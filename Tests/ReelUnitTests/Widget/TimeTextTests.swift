import ReelGtk
import Testing

@Suite("Time labels")
struct TimeTextTests {
    @Test("M:SS under an hour, H:MM:SS from an hour or when the media is that long")
    func shapes() {
        #expect(TimeText.elapsed(0) == "0:00")
        #expect(TimeText.elapsed(65.9) == "1:05")
        #expect(TimeText.elapsed(599.999) == "9:59")
        #expect(TimeText.elapsed(3600) == "1:00:00")
        #expect(TimeText.elapsed(3725) == "1:02:05")
        // Both labels keep one shape for the whole file.
        #expect(TimeText.elapsed(65, reference: 4000) == "0:01:05")
        #expect(TimeText.elapsed(65, options: .init(alwaysShowHours: true)) == "0:01:05")
    }

    @Test("Remaining rounds up and reaches 0:00 at the end; elapsed plus remaining is the duration")
    func remaining() {
        #expect(TimeText.remaining(position: 0, duration: 12) == "-0:12")
        #expect(TimeText.remaining(position: 0.2, duration: 12) == "-0:12")
        #expect(TimeText.remaining(position: 11.5, duration: 12) == "-0:01")
        #expect(TimeText.remaining(position: 12, duration: 12) == "-0:00")
        #expect(TimeText.remaining(position: 3, duration: 12, options: .init(remainingMinusSign: false)) == "0:09")
        for p in stride(from: 0.0, through: 100, by: 0.7) {
            let e = TimeText.elapsed(p).split(separator: ":").map { Int($0)! }
            let r = TimeText.remaining(position: p, duration: 100, options: .init(remainingMinusSign: false))
                .split(separator: ":").map { Int($0)! }
            #expect(e[0] * 60 + e[1] + r[0] * 60 + r[1] == 100, "at \(p)")
        }
    }

    @Test("Timecode with frames at the stream's rate")
    func frames() {
        let options = TimeTextOptions(showFrames: true)
        #expect(TimeText.elapsed(0, frameRate: 25, options: options) == "0:00:00:00")
        #expect(TimeText.elapsed(1.52, frameRate: 25, options: options) == "0:00:01:13")
        #expect(TimeText.elapsed(3661.04, frameRate: 25, options: options) == "1:01:01:01")
        // 29.97 counts frames 0…29 within a second of timecode.
        #expect(TimeText.elapsed(10.0 / 29.97, frameRate: 30000.0 / 1001, options: options) == "0:00:00:10")
        // Without a frame rate (sound only) frames cannot be shown.
        #expect(TimeText.elapsed(5, frameRate: nil, options: options) == "0:05")
    }

    @Test("Nonsense stays readable")
    func nonsense() {
        #expect(TimeText.elapsed(.nan) == "--:--")
        #expect(TimeText.elapsed(-3) == "0:00")
        #expect(TimeText.remaining(position: 20, duration: 12) == "-0:00")
    }
}
