import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Finds the text encoding of a subtitle file and converts it to UTF-8 with iconv: byte-order
/// marks first, then UTF-8 (also with a few damaged bytes), then a guess among the common
/// legacy encodings (GB18030 for Chinese, Windows-1251 for Cyrillic, Windows-1252 for Western
/// text). A person's choice wins. Bytes that are not valid in the encoding become U+FFFD (�):
/// one bad byte must not cost the whole file.
/// Threading: pure functions.
enum SubtitleCharset {
    /// Encodings offered to people, by iconv name.
    static let choices = ["UTF-8", "UTF-16", "WINDOWS-1252", "WINDOWS-1251", "GB18030", "ISO-8859-1",
                          "ISO-8859-2", "WINDOWS-1250", "KOI8-R", "SHIFT_JIS", "BIG5", "EUC-KR"]

    /// Whether the bytes are text at all (binary subtitle formats such as PGS are not).
    static func looksLikeText(_ data: Data) -> Bool {
        if data.starts(with: [0xFF, 0xFE]) || data.starts(with: [0xFE, 0xFF]) { return true }
        return !data.prefix(4096).contains(0)
    }

    static func detect(_ data: Data) -> String {
        if data.starts(with: [0xEF, 0xBB, 0xBF]) { return "UTF-8" }
        if data.starts(with: [0xFF, 0xFE]) { return "UTF-16LE" }
        if data.starts(with: [0xFE, 0xFF]) { return "UTF-16BE" }
        if String(data: data, encoding: .utf8) != nil || isMostlyUTF8(data) { return "UTF-8" }
        if isPlausibleGB18030(data) { return "GB18030" }
        return looksCyrillic(data) ? "WINDOWS-1251" : "WINDOWS-1252"
    }

    /// UTF-8 with some damage (a cut-off character, a stray byte of another encoding): at
    /// least two in three of its non-ASCII sequences are well-formed UTF-8. Legacy encodings
    /// form such sequences only by chance (one in ten or fewer, in Chinese or Cyrillic text).
    private static func isMostlyUTF8(_ data: Data) -> Bool {
        var valid = 0, invalid = 0
        data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            var i = 0
            while i < bytes.count {
                let b = bytes[i]
                if b < 0x80 { i += 1; continue }
                let trail = switch b {
                case 0xC2...0xDF: 1
                case 0xE0...0xEF: 2
                case 0xF0...0xF4: 3
                default: 0
                }
                if trail > 0, i + trail < bytes.count, (1...trail).allSatisfy({ bytes[i + $0] & 0xC0 == 0x80 }) {
                    valid += 1
                    i += trail + 1
                } else {
                    invalid += 1
                    i += 1
                }
            }
        }
        return valid > 0 && valid >= 2 * invalid
    }

    /// Every high byte starts a well-formed two- or four-byte GB18030 sequence, and there are
    /// enough of them to be Chinese text rather than a few accented letters.
    private static func isPlausibleGB18030(_ data: Data) -> Bool {
        let bytes = [UInt8](data)
        var i = 0, sequences = 0
        while i < bytes.count {
            let b = bytes[i]
            if b < 0x80 { i += 1; continue }
            guard b >= 0x81, b <= 0xFE, i + 1 < bytes.count else { return false }
            let t = bytes[i + 1]
            if t >= 0x30 && t <= 0x39 {
                guard i + 3 < bytes.count, (0x81...0xFE).contains(bytes[i + 2]), (0x30...0x39).contains(bytes[i + 3])
                else { return false }
                i += 4
            } else if (0x40...0xFE).contains(t) && t != 0x7F {
                i += 2
            } else {
                return false
            }
            sequences += 1
        }
        return sequences >= 2
    }

    /// Cyrillic in Windows-1251 writes whole words in high bytes; Western text in
    /// Windows-1252 has an accented letter here and there between ASCII letters.
    private static func looksCyrillic(_ data: Data) -> Bool {
        var run = 0, longRuns = 0, high = 0
        for b in data {
            if b >= 0xC0 { run += 1; high += 1 } else {
                if run >= 3 { longRuns += 1 }
                run = 0
            }
        }
        if run >= 3 { longRuns += 1 }
        return high > 0 && longRuns * 4 >= max(1, high / 8)
    }

    /// The text as UTF-8 (without a byte-order mark), each byte not valid in `charset` as
    /// U+FFFD; nil when iconv does not know `charset`.
    static func convertToUTF8(_ data: Data, from charset: String) -> Data? {
        var input = data
        if charset.uppercased() == "UTF-8" {
            if input.starts(with: [0xEF, 0xBB, 0xBF]) { input = input.dropFirst(3) }
            if String(data: input, encoding: .utf8) != nil { return Data(input) }
            return Data(String(decoding: input, as: UTF8.self).utf8)
        }
        var from = charset
        if charset.uppercased().hasPrefix("UTF-16") {
            // iconv's plain UTF-16 reads the mark itself; the explicit forms keep it as U+FEFF.
            if input.starts(with: [0xFF, 0xFE]) { input = input.dropFirst(2); from = "UTF-16LE" }
            else if input.starts(with: [0xFE, 0xFF]) { input = input.dropFirst(2); from = "UTF-16BE" }
        }
        let cd = iconv_open("UTF-8", from)
        guard cd != iconv_t(bitPattern: -1) else { return nil }
        defer { iconv_close(cd) }
        var source = [UInt8](input)
        // Room for the worst case: every input byte a replacement character (3 bytes).
        var output = [UInt8](repeating: 0, count: source.count * 4 + 16)
        let written: Int? = source.withUnsafeMutableBytes { src in
            output.withUnsafeMutableBytes { dst in
                var inPtr = src.baseAddress?.assumingMemoryBound(to: CChar.self)
                var inLeft = src.count
                var outPtr = dst.baseAddress?.assumingMemoryBound(to: CChar.self)
                var outLeft = dst.count
                while inLeft > 0 {
                    if iconv(cd, &inPtr, &inLeft, &outPtr, &outLeft) != -1 { break }
                    // Invalid (EILSEQ) or cut short at the end (EINVAL): that byte is replaced.
                    guard errno == EILSEQ || errno == EINVAL, outLeft >= 3 else { return nil }
                    for byte: UInt8 in [0xEF, 0xBF, 0xBD] {
                        outPtr?.pointee = CChar(bitPattern: byte)
                        outPtr = outPtr?.advanced(by: 1)
                    }
                    outLeft -= 3
                    inPtr = inPtr?.advanced(by: 1)
                    inLeft -= 1
                }
                return inLeft == 0 ? dst.count - outLeft : nil
            }
        }
        guard let written else { return nil }
        return Data(output.prefix(written))
    }
}
