import Foundation
import ReelEngine

/// What Open an Address offers from the clipboard: a web address Reel plays, alone on its line,
/// as people copy one from a browser's address bar. Anything else (a paragraph, a path, a file
/// copied in Files, a password) is not offered: the dialog then starts empty.
/// Threading: pure functions.
enum ClipboardAddress {
    /// Longer text is not an address someone copied (and is not worth checking).
    static let longest = 4096

    static func offer(_ text: String?) -> String? {
        guard let text, text.utf8.count <= longest else { return nil }
        let address = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !address.isEmpty, !address.contains(where: { $0.isWhitespace }),
              case .valid(let valid) = AddressCheck.check(address),
              (try? MediaSource(parsing: valid))?.isRemote == true else { return nil }
        return valid
    }
}
