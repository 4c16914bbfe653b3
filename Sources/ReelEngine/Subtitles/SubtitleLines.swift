import Foundation

/// The bound on subtitle text: no line of a subtitle file and no cue is longer than
/// `longest` bytes; longer ones are cut there. libass lays out every character of a cue it
/// shows, at a few hundred bytes each: one 50 MB line took 23 GB and two minutes to draw. Real
/// cues are a few hundred bytes; the largest ASS drawings a few tens of kilobytes.
/// Threading: pure functions.
enum SubtitleLines {
    static let longest = 64 << 10

    /// `text` (UTF-8) with every line longer than `longest` cut to it at a character
    /// boundary; nil when no line is that long.
    static func cuttingLongLines(_ text: Data) -> Data? {
        text.withUnsafeBytes { raw -> Data? in
            let bytes = raw.bindMemory(to: UInt8.self)
            var lineStart = 0
            var tooLong = false
            for i in 0...bytes.count where i == bytes.count || bytes[i] == 0x0A {
                if i - lineStart > longest { tooLong = true; break }
                lineStart = i + 1
            }
            guard tooLong else { return nil }
            var out = Data()
            out.reserveCapacity(min(bytes.count, 1 << 20))
            lineStart = 0
            for i in 0...bytes.count where i == bytes.count || bytes[i] == 0x0A {
                var end = i
                if end - lineStart > longest {
                    end = lineStart + longest
                    // Not inside a character: back off over continuation bytes (10xxxxxx).
                    while end > lineStart && bytes[end] & 0xC0 == 0x80 { end -= 1 }
                }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[lineStart..<end]))
                if i < bytes.count { out.append(0x0A) }
                lineStart = i + 1
            }
            return out
        }
    }

    /// `text` cut to at most `longest` bytes of UTF-8, at a character boundary.
    static func cut(_ text: String) -> String {
        guard text.utf8.count > longest else { return text }
        var end = text.utf8.index(text.utf8.startIndex, offsetBy: longest)
        while end.samePosition(in: text.unicodeScalars) == nil { end = text.utf8.index(before: end) }
        return String(text[..<end])
    }
}
