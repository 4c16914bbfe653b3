import CGtk

/// Reel's user-visible text in the user's language, looked up in gettext's catalog for the
/// `reel` domain. The text is a `StaticString` so every marked string is a literal that the
/// extraction (xgettext over the Swift sources) can find; put values in with a format string.
/// Threading: any thread (gettext's lookups are thread-safe once the domain is bound at start).
public enum Translation {
    public static let domain = "reel"
}

/// The translation of `text`, or `text` itself where the catalog has none.
public func tr(_ text: StaticString) -> String {
    text.description.withCString { String(cString: g_dgettext(Translation.domain, $0)) }
}

/// The translation of a text that depends on a count: the catalog's plural rule picks the form.
public func trn(_ singular: StaticString, _ plural: StaticString, _ count: Int) -> String {
    singular.description.withCString { one in
        plural.description.withCString { many in
            String(cString: g_dngettext(Translation.domain, one, many, gulong(max(count, 0))))
        }
    }
}
