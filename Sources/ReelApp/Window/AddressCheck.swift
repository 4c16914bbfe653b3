import Foundation
import ReelEngine

/// What the address entry of Open an Address takes: what Reel plays (`MediaSource`'s schemes,
/// which `ProtocolPolicy` lets FFmpeg open: http and https addresses, file URIs) or the full
/// path of a file that exists. Anything else is named for the person while the dialog stays,
/// so that a mistyped address never replaces what plays with "File not found". A path
/// relative to the folder Reel happened to start in is not taken: the person cannot see it.
/// Threading: a value type.
enum AddressCheck: Equatable {
    /// Nothing typed yet: no complaint, and nothing to open.
    case empty
    /// Something Reel can open, as it should be handed on (a `~` path made full).
    case valid(String)
    case invalid(Problem)

    enum Problem: Equatable {
        /// A scheme other than http, https and file (`ftp://`, `rtmp://`, `smb://`…).
        case unsupportedScheme(String)
        /// `https://` with no server after it.
        case noServer
        /// A full path or file URI naming no file.
        case noSuchFile
        /// Neither an address nor a full path ("not a url", "example.com/film.mp4").
        case notAnAddress
    }

    /// The verdict on `text` (spaces around it do not count); `fileExists` answers for paths.
    static func check(_ text: String, home: String = NSHomeDirectory(),
                      fileExists: (String) -> Bool = { FileManager.default.fileExists(atPath: $0) }) -> AddressCheck {
        var address = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !address.isEmpty else { return .empty }
        if address == "~" || address.hasPrefix("~/") { address = home + address.dropFirst() }
        let scheme = Self.scheme(of: address)
        guard scheme != nil || address.hasPrefix("/") else { return .invalid(.notAnAddress) }
        let source: MediaSource
        do throws(PlayerError) {
            source = try MediaSource(parsing: address)
        } catch {
            switch scheme {
            case "http", "https": return .invalid(.noServer)
            case "file": return .invalid(.noSuchFile)
            default: return .invalid(.unsupportedScheme(scheme ?? address))
            }
        }
        switch source.location {
        case .remote:
            guard let host = URL(string: address)?.host, !host.isEmpty else { return .invalid(.noServer) }
            return .valid(address)
        case .file(let path): return fileExists(path) ? .valid(address) : .invalid(.noSuchFile)
        }
    }

    /// The scheme, lowercased, when `address` starts with one as `MediaSource` reads it
    /// (`name://`, or `file:`); nil for a path.
    private static func scheme(of address: String) -> String? {
        guard let colon = address.firstIndex(of: ":") else { return nil }
        let name = address[..<colon].lowercased()
        guard name.count > 1, name.first?.isLetter == true,
              name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == "." }),
              address[colon...].hasPrefix("://") || name == "file" else { return nil }
        return name
    }

    /// What is wrong with the text, for the person: nil while there is nothing to complain of.
    var message: String? {
        guard case .invalid(let problem) = self else { return nil }
        switch problem {
        case .unsupportedScheme(let scheme):
            // Translators: %@ is the start of what was typed, such as "ftp".
            return String(format: tr("Reel cannot open “%@” addresses: only http, https and file"), scheme)
        case .noServer: return tr("The address needs a server name after “//”")
        case .noSuchFile: return tr("There is no file at this path")
        case .notAnAddress: return tr("Type an address starting with https:// or the full path of a file")
        }
    }

    var isValid: Bool {
        if case .valid = self { return true }
        return false
    }
}
