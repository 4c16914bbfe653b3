import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Finds the text encoding of a subtitle file and converts it to UTF-8 with iconv: byte-order
/// marks first, then UTF-16 without one, then UTF-8 (also with a few damaged bytes), then what
/// uchardet finds, else Windows-1252. A person's choice wins. Bytes that are not valid in the
/// encoding become U+FFFD (�): one bad byte must not cost the whole file.
/// Threading: pure functions.
enum SubtitleCharset {
    /// Encodings offered to people, by iconv name: Unicode, then the legacy tables of subtitle
    /// files by script (Western, Central European, Cyrillic, Greek, Turkish, Hebrew, Arabic,
    /// Chinese, Japanese, Korean).
    static let choices = ["UTF-8", "UTF-16", "UTF-16LE", "UTF-16BE",
                          "WINDOWS-1252", "ISO-8859-1", "ISO-8859-15",
                          "WINDOWS-1250", "ISO-8859-2",
                          "WINDOWS-1251", "KOI8-R", "ISO-8859-5",
                          "WINDOWS-1253", "ISO-8859-7",
                          "WINDOWS-1254", "ISO-8859-9",
                          "WINDOWS-1255", "ISO-8859-8",
                          "WINDOWS-1256", "ISO-8859-6",
                          "GB18030", "BIG5", "SHIFT_JIS", "EUC-JP", "EUC-KR"]

    /// Whether the bytes are text at all (binary subtitle formats such as PGS are not).
    static func looksLikeText(_ data: Data) -> Bool {
        if data.starts(with: [0xFF, 0xFE]) || data.starts(with: [0xFE, 0xFF]) { return true }
        if utf16WithoutMark(data) != nil { return true }
        return !data.prefix(4096).contains(0)
    }

    static func detect(_ data: Data) -> String {
        if data.starts(with: [0xEF, 0xBB, 0xBF]) { return "UTF-8" }
        if data.starts(with: [0xFF, 0xFE]) { return "UTF-16LE" }
        if data.starts(with: [0xFE, 0xFF]) { return "UTF-16BE" }
        // Before UTF-8: UTF-16's zero bytes are valid UTF-8 too.
        if let utf16 = utf16WithoutMark(data) { return utf16 }
        if String(data: data, encoding: .utf8) != nil || isMostlyUTF8(data) { return "UTF-8" }
        // Text uchardet cannot place is read as Windows-1252: it reads every byte but five, and
        // Western text is what old subtitle files hold most.
        return CharsetDetector.detect(data) ?? "WINDOWS-1252"
    }

    /// UTF-16 without a byte-order mark (uchardet does not look for it), "UTF-16LE" or
    /// "UTF-16BE". A subtitle file is mostly ASCII (numbers, times, tags), so in UTF-16 the high
    /// byte of most code units is zero: at odd offsets little-endian, at even ones big-endian,
    /// and seldom at the others (a low byte is zero only in characters such as U+4E00). Binary
    /// formats have zeros anywhere and code units below U+0020 besides tab and line breaks.
    static func utf16WithoutMark(_ data: Data) -> String? {
        let bytes = [UInt8](data.prefix(4096))
        let units = bytes.count / 2
        guard units >= 4 else { return nil }
        var zeroAtEven = 0, zeroAtOdd = 0
        for i in 0..<units * 2 where bytes[i] == 0 {
            if i % 2 == 0 { zeroAtEven += 1 } else { zeroAtOdd += 1 }
        }
        let little: Bool
        if zeroAtOdd * 4 >= units, zeroAtEven * 4 < zeroAtOdd { little = true }
        else if zeroAtEven * 4 >= units, zeroAtOdd * 4 < zeroAtEven { little = false }
        else { return nil }
        for i in 0..<units {
            let (low, high) = little ? (bytes[2 * i], bytes[2 * i + 1]) : (bytes[2 * i + 1], bytes[2 * i])
            if high == 0, low < 0x20, low != 0x09, low != 0x0A, low != 0x0D { return nil }
        }
        return little ? "UTF-16LE" : "UTF-16BE"
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

    /// The table iconv reads `charset` with: Microsoft's supersets of two East Asian tables,
    /// which keep ASCII whole. glibc's SHIFT_JIS reads 0x5C as ¥ and 0x7E as ‾ (JIS X 0201), so
    /// every ASS tag and \N line break would break; Japanese subtitle files come from Windows
    /// (CP932) anyway. EUC-KR refuses the syllables CP949 adds, which Korean Windows files use.
    static func iconvTable(for charset: String) -> String {
        switch charset.uppercased() {
        case "SHIFT_JIS", "SHIFT-JIS", "SJIS", "MS_KANJI", "CSSHIFTJIS": "CP932"
        case "EUC-KR", "EUCKR", "CSEUCKR": "CP949"
        default: charset
        }
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
        var from = iconvTable(for: charset)
        if charset.uppercased().hasPrefix("UTF-16") {
            // iconv's plain UTF-16 reads the mark itself; the explicit forms keep it as U+FEFF.
            if input.starts(with: [0xFF, 0xFE]) { input = input.dropFirst(2); from = "UTF-16LE" }
            else if input.starts(with: [0xFE, 0xFF]) { input = input.dropFirst(2); from = "UTF-16BE" }
            // Without a mark glibc's plain UTF-16 reads the machine's order: the zero bytes tell.
            else if charset.uppercased() == "UTF-16", let order = utf16WithoutMark(input) { from = order }
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
