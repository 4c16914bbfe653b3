import CLinux

/// Reel's user-visible text in the user's language, looked up in gettext's catalog for the
/// `reel` domain (glibc's libintl, so the engine's messages for people are translated too,
/// without GLib). The text is a `StaticString` so every marked string is a literal that the
/// extraction (`scripts/update-po.sh`: xgettext over the Swift sources) can find; put values in
/// with a format string, positional (`%1$@`) where a translation may need another order.
/// Until `Translation.start` binds the domain (the `reel` program does, first thing), the
/// lookups answer the English text: `reel-tool` and the tests stay English.
/// Threading: any thread (gettext's lookups are thread-safe once `start` has run).
public enum Translation {
    public static let domain = "reel"

    /// Takes the person's locale from the environment and binds the `reel` domain to the
    /// catalogs (`<localeDirectory>/<lang>/LC_MESSAGES/reel.mo`), read as UTF-8. Call once,
    /// before any thread starts and before GTK and GApplication read the locale.
    public static func start(localeDirectory: String) {
        setlocale(LC_ALL, "")
        bindtextdomain(domain, localeDirectory)
        bind_textdomain_codeset(domain, "UTF-8")
        textdomain(domain)
    }
}

/// The translation of `text`, or `text` itself where the catalog has none.
public func tr(_ text: StaticString) -> String {
    text.description.withCString { String(cString: dgettext(Translation.domain, $0)) }
}

/// The translation of a text that depends on a count: the catalog's plural rule picks the form.
public func trn(_ singular: StaticString, _ plural: StaticString, _ count: Int) -> String {
    singular.description.withCString { one in
        plural.description.withCString { many in
            String(cString: dngettext(Translation.domain, one, many, UInt(max(count, 0))))
        }
    }
}
