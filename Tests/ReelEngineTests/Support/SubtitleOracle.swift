import Foundation
import ReelTestSupport
import Testing

/// Reads burned-in subtitles back from PNGs with tools outside Reel: tesseract for the words,
/// ffmpeg for the pixels (to find where the subtitles are and what colour they have).
/// Threading: any test thread; each call runs its own processes.
enum SubtitleOracle {
    /// The words tesseract reads, lower-cased and on one line.
    static func ocr(_ png: String) throws -> String {
        let result = try Command.run(["tesseract", png, "-", "--psm", "6"], check: false)
        return result.output.lowercased().split(whereSeparator: \.isNewline).joined(separator: " ")
    }

    struct Picture {
        let width: Int, height: Int
        let rgb: [UInt8]
        func pixel(_ x: Int, _ y: Int) -> (r: Int, g: Int, b: Int) {
            let o = (y * width + x) * 3
            return (Int(rgb[o]), Int(rgb[o + 1]), Int(rgb[o + 2]))
        }
        /// The rectangle of pixels far from the flat background colour (nil: none).
        func drawnArea(background: (r: Int, g: Int, b: Int), tolerance: Int = 40) -> (x0: Int, y0: Int, x1: Int, y1: Int)? {
            var box: (x0: Int, y0: Int, x1: Int, y1: Int)?
            for y in 0..<height {
                for x in 0..<width {
                    let p = pixel(x, y)
                    if abs(p.r - background.r) + abs(p.g - background.g) + abs(p.b - background.b) > tolerance {
                        box = box.map { (min($0.x0, x), min($0.y0, y), max($0.x1, x), max($0.y1, y)) } ?? (x, y, x, y)
                    }
                }
            }
            return box
        }
        func count(where match: (Int, Int, Int) -> Bool) -> Int {
            var n = 0
            for i in stride(from: 0, to: rgb.count, by: 3) where match(Int(rgb[i]), Int(rgb[i + 1]), Int(rgb[i + 2])) { n += 1 }
            return n
        }
    }

    /// The PNG's pixels as ffmpeg decodes them.
    static func picture(_ png: String) throws -> Picture {
        let probe = try Command.run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries",
                                     "stream=width,height", "-of", "csv=p=0", png])
        let size = probe.output.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ",").compactMap { Int($0) }
        let raw = try Command.run(["ffmpeg", "-v", "error", "-i", png, "-f", "rawvideo", "-pix_fmt", "rgb24", "-"])
        return Picture(width: size[0], height: size[1], rgb: [UInt8](raw.stdout))
    }

    /// A scratch folder for one test's files.
    static func folder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("reel-subtitles-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Writes `text` in `charset` through the iconv program (with a byte-order mark when asked).
    static func write(_ text: String, to path: String, charset: String, bom: [UInt8] = []) throws {
        let utf8 = path + ".utf8"
        try text.write(toFile: utf8, atomically: true, encoding: .utf8)
        let converted = try Command.run(["iconv", "-f", "UTF-8", "-t", charset, utf8])
        try (Data(bom) + converted.stdout).write(to: URL(fileURLWithPath: path))
        try FileManager.default.removeItem(atPath: utf8)
    }
}
