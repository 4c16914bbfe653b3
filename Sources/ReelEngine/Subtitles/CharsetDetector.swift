import CUchardet
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The legacy text encoding uchardet (Mozilla's detector, as mpv uses it) finds in a subtitle
/// file, by the name Reel converts it with. Each call owns a detector from creation to deletion.
/// Threading: pure functions; any thread (each call has a detector of its own).
enum CharsetDetector {
    /// The encoding of `data` as an iconv name; nil when uchardet cannot place the text or names
    /// an encoding iconv does not read.
    static func detect(_ data: Data) -> String? {
        guard let detector = uchardet_new() else { return nil }
        defer { uchardet_delete(detector) }
        let fed = data.withUnsafeBytes { raw in
            uchardet_handle_data(detector, raw.baseAddress?.assumingMemoryBound(to: CChar.self), raw.count)
        }
        guard fed == 0 else { return nil }
        uchardet_data_end(detector)
        guard let found = uchardet_get_charset(detector).map({ String(cString: $0) }), !found.isEmpty else { return nil }
        let name = iconvNames[found] ?? found
        return iconvReads(name) ? name : nil
    }

    /// uchardet's names that Reel reads under another one. The rest are iconv's names already
    /// (`iconv -l`), or names iconv does not know (HZ-GB-2312, the odd UCS-4 byte orders), which
    /// `detect` turns down.
    static let iconvNames: [String: String] = [
        // No byte above 0x7F: UTF-8 reads it the same, and stray bytes become U+FFFD where
        // iconv's ASCII would stop.
        "ASCII": "UTF-8",
        // Microsoft's extension of EUC-KR (more syllables); the conversion reads EUC-KR with it
        // anyway, so the name shown is the family's, as the encodings offered to people have it.
        "UHC": "EUC-KR",
        // The Windows tables are these ISO tables with quotes, dashes and the euro sign in
        // 0x80–0x9F, where ISO has control characters no subtitle holds. uchardet says ISO-8859-1
        // for Western text with no byte there (the two read the same), and ISO-8859-9 for
        // Turkish text even with them (it has no Windows-1254).
        "ISO-8859-1": "WINDOWS-1252",
        "ISO-8859-9": "WINDOWS-1254",
    ]

    static func iconvReads(_ name: String) -> Bool {
        let cd = iconv_open("UTF-8", name)
        guard cd != iconv_t(bitPattern: -1) else { return false }
        iconv_close(cd)
        return true
    }
}
