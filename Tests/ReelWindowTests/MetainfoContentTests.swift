import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import ReelEngine
import Testing

/// What the AppStream metainfo says beside passing the validator: the types it provides are the
/// desktop file's, each one a type the desktop's MIME database knows; its newest release is the
/// version Reel reports; its screenshots are committed pictures small enough for a software centre.
@Suite("AppStream metainfo content")
struct MetainfoContentTests {
    static let id = DesktopIntegrationTests.id
    static func path(_ relative: String) -> String { DesktopIntegrationTests.path(relative) }

    /// Claimed although shared-mime-info 2.2 does not define them: HLS and DASH servers send
    /// them, and a browser opening a download with its application asks for the application
    /// of the server's type.
    static let typesOutsideSharedMimeInfo: Set<String> = ["application/x-mpegurl", "application/dash+xml"]

    static func desktopTypes() throws -> [String] {
        let entry = try String(contentsOfFile: path("data/\(id).desktop"), encoding: .utf8)
        return (DesktopIntegrationTests.keys(of: entry)["MimeType"] ?? "").split(separator: ";").map(String.init)
    }

    static func metainfo() throws -> XMLOutline {
        try XMLOutline(file: path("data/\(id).metainfo.xml"))
    }

    @Test("Every MimeType of the desktop file is a type or an alias shared-mime-info defines, listed once")
    func typesAreKnown() throws {
        // The database the desktop reads, as update-mime-database writes it: one type a line,
        // and one "alias type" a line.
        let types = try String(contentsOfFile: "/usr/share/mime/types", encoding: .utf8)
        let aliases = try String(contentsOfFile: "/usr/share/mime/aliases", encoding: .utf8)
        // MIME types compare without case (RFC 2045); the database spells audio/AMR so.
        let known = Set((types + "\n" + aliases).split(whereSeparator: { $0 == "\n" || $0 == " " }).map { $0.lowercased() })
        #expect(known.count > 1000, "read \(known.count) types and aliases from shared-mime-info")
        let claimed = try Self.desktopTypes()
        #expect(claimed.count >= 40, "MimeType: \(claimed)")
        #expect(Set(claimed.map { $0.lowercased() }).count == claimed.count, "listed twice: \(claimed)")
        for type in claimed where !Self.typesOutsideSharedMimeInfo.contains(type) {
            #expect(known.contains(type.lowercased()), "shared-mime-info does not know \(type)")
        }
        for type in Self.typesOutsideSharedMimeInfo {
            #expect(claimed.contains(type), "\(type) is kept on purpose but no longer listed")
        }
    }

    @Test("The metainfo provides the two binaries and exactly the desktop file's MIME types")
    func providesMatchesDesktopFile() throws {
        let provided = try Self.metainfo().elements.filter { $0.path.dropLast().last == "provides" }
        let binaries = provided.filter { $0.path.last == "binary" }.map(\.text)
        #expect(binaries == ["reel", "reel-tool"], "binaries: \(binaries)")
        let mediatypes = provided.filter { $0.path.last == "mediatype" }.map(\.text)
        let types = try Self.desktopTypes()
        #expect(mediatypes.count == Set(mediatypes).count, "listed twice: \(mediatypes)")
        #expect(Set(mediatypes) == Set(types),
                "only in the metainfo: \(Set(mediatypes).subtracting(types).sorted()); only in the desktop file: \(Set(types).subtracting(mediatypes).sorted())")
    }

    @Test("Releases run newest first, and the newest is the version Reel reports")
    func releases() throws {
        let releases = try Self.metainfo().elements.filter { $0.path.suffix(2) == ["releases", "release"] }
        #expect((3...5).contains(releases.count), "\(releases.count) releases")
        let versions = releases.map { ($0.attributes["version"] ?? "").split(separator: ".").map { Int($0) ?? -1 } }
        let dates = releases.map { $0.attributes["date"] ?? "" }
        #expect(releases.first?.attributes["version"] == ReelVersion.string,
                "newest release \(releases.first?.attributes["version"] ?? "none"), ReelVersion.string \(ReelVersion.string)")
        for (newer, older) in zip(versions, versions.dropFirst()) {
            #expect(newer.lexicographicallyPrecedes(older) == false && newer != older, "\(newer) listed before \(older)")
        }
        for (newer, older) in zip(dates, dates.dropFirst()) {
            #expect(newer >= older, "released \(newer) listed before \(older)")
        }
        #expect(dates.allSatisfy { $0.wholeMatch(of: /\d{4}-\d{2}-\d{2}/) != nil }, "dates: \(dates)")
    }

    @Test("Each screenshot is a committed PNG under 150 KB with a caption, and the README shows them")
    func screenshots() throws {
        let outline = try Self.metainfo()
        let images = outline.elements.filter { $0.path.suffix(3) == ["screenshots", "screenshot", "image"] }.map(\.text)
        let captions = outline.elements.filter { $0.path.suffix(3) == ["screenshots", "screenshot", "caption"] }
        #expect((2...4).contains(images.count) && captions.count == images.count, "images \(images), \(captions.count) captions")
        let prefix = "https://raw.githubusercontent.com/reel-player/reel/main/"
        let readme = try String(contentsOfFile: Self.path("README.md"), encoding: .utf8)
        for url in images {
            #expect(url.hasPrefix(prefix + "data/screenshots/") && url.hasSuffix(".png"), "\(url)")
            let relative = String(url.dropFirst(prefix.count))
            let data = try Data(contentsOf: URL(fileURLWithPath: Self.path(relative)))
            #expect(data.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]), "\(relative) is not a PNG")
            #expect(data.count <= 150_000, "\(relative): \(data.count) bytes")
            #expect(readme.contains("(\(relative))"), "README.md does not show \(relative)")
        }
    }
}

/// Every element of an XML file: its path from the root, attributes and text.
/// Threading: filled by one parse on the thread that creates it, read-only afterwards.
final class XMLOutline: NSObject, XMLParserDelegate {
    struct Element {
        var path: [String]
        var attributes: [String: String]
        var text: String
    }

    private(set) var elements: [Element] = []
    private var open: [Int] = []  // indexes in elements of the elements not yet closed

    init(file: String) throws {
        super.init()
        let parser = XMLParser(data: try Data(contentsOf: URL(fileURLWithPath: file)))
        parser.delegate = self
        guard parser.parse() else {
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSFilePathErrorKey: file,
                NSUnderlyingErrorKey: parser.parserError as Any])
        }
        elements = elements.map { var element = $0; element.text = element.text.trimmingCharacters(in: .whitespacesAndNewlines); return element }
    }

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?,
                qualifiedName: String?, attributes: [String: String] = [:]) {
        let path = (open.last.map { elements[$0].path } ?? []) + [name]
        open.append(elements.count)
        elements.append(Element(path: path, attributes: attributes, text: ""))
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        open.removeLast()
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if let current = open.last { elements[current].text += string }
    }
}
