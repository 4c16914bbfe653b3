/// Interlaced clips with motion, as a TV recording or a camcorder makes them: 576 lines, 25
/// interlaced frames a second made from 50 progressive pictures (`tinterlace` weaves each
/// pair into one frame), coded as interlaced H.264 with its field order flagged. A key frame
/// every 12 frames, so exact seeks land both inside a GOP and on a key frame.
extension Fixtures.Spec {
    public static let interlacedTFF = interlaced("interlaced-tff", first: "top")
    public static let interlacedBFF = interlaced("interlaced-bff", first: "bottom")

    static func interlaced(_ name: String, first: String) -> Self {
        let short = first == "top" ? "tff" : "bff"
        return .init(name: name, ext: "mkv", arguments: [
            "-f", "lavfi", "-i", "testsrc2=size=720x576:rate=50:duration=2",
            "-vf", "tinterlace=mode=interleave_\(first),setfield=\(short),format=yuv420p",
            "-c:v", "libx264", "-preset", "ultrafast", "-crf", "12", "-g", "12", "-flags", "+ildct+ilme",
            "-x264-params", "\(short)=1", "-aspect", "16:9",
        ])
    }
}
