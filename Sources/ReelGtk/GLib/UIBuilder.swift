import CGtk
import ReelEngine

/// Reel's GtkBuilder files, `data/ui/<name>.ui`: every file the widget and the app load, so that
/// all of them can be checked before any window needs one.
public enum UIFile: String, CaseIterable, Sendable {
    case window
    case playerView = "player-view"
    case scrubberPreview = "scrubber-preview"
    case openURL = "open-url"
    case shortcuts
    case preferences
    case equalizer
    case goToTime = "go-to-time"

    public var path: String { DataDirectory.file("ui/\(rawValue).ui") }
}

/// A GtkBuilder loaded from one of Reel's `.ui` files; objects are looked up by id and wired in
/// Swift (no `<signal>` handlers in the files, so no GModule symbol lookup is needed).
/// Threading: main thread only.
@MainActor
public final class UIBuilder {
    public let builder: OpaquePointer

    /// Loads the file from the data directory. That every file is there is checked when Reel
    /// starts (`DataDirectory.missingFiles`), which tells the person; one that is there but
    /// broken (the validators check each) or removed while Reel runs is a packaging error and
    /// stops the program with the file's path and GTK's message.
    public init(_ file: UIFile) {
        let path = file.path
        builder = gtk_builder_new()
        // The files' translatable="yes" texts come from Reel's catalog, not the program's default.
        gtk_builder_set_translation_domain(builder, Translation.domain)
        var error: UnsafeMutablePointer<GError>? = nil
        if gtk_builder_add_from_file(builder, path, &error) == 0 {
            let message = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
            fatalError("Reel cannot load its interface file \(path): \(message)")
        }
    }

    isolated deinit { g_object_unref(builder.raw.cast(to: GObject.self)) }

    /// The object with this id, as a raw GObject pointer.
    public func object(_ id: String) -> UnsafeMutableRawPointer {
        guard let object = gtk_builder_get_object(builder, id) else {
            fatalError("Reel's interface file has no object with id \(id)")
        }
        return object.raw
    }

    public func widget(_ id: String) -> UnsafeMutablePointer<GtkWidget> { object(id).cast() }
}
