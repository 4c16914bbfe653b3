import ReelEngine
import ReelGtk

/// One value a choice preference can take: the id the key holds and the name people read.
/// Threading: a value type.
struct PreferenceChoice: Equatable {
    let id: String
    let title: String
}

/// The values offered for the preferences that are a choice, in the order shown. The ids are
/// the schema's (`<choices>`) or, for the subtitle encoding, the iconv names the engine reads.
/// Threading: main thread only (the titles are looked up in the user's language when asked).
@MainActor
enum PreferenceChoices {
    static var resumePlayback: [PreferenceChoice] {
        ResumeMode.allCases.map { mode in
            switch mode {
            case .resume: .init(id: mode.rawValue, title: tr("Resumes where it was left"))
            case .ask: .init(id: mode.rawValue, title: tr("Asks whether to resume"))
            case .never: .init(id: mode.rawValue, title: tr("Starts from the beginning"))
            }
        }
    }

    static var videoOutput: [PreferenceChoice] {
        [.init(id: "auto", title: tr("Automatic: the graphics card when it can")),
         .init(id: "gl", title: tr("The graphics card (OpenGL)")),
         .init(id: "software", title: tr("The processor"))]
    }

    static var subtitleSize: [PreferenceChoice] {
        [.init(id: "tiny", title: tr("Tiny")),
         .init(id: "medium", title: tr("Medium")),
         .init(id: "large", title: tr("Large")),
         .init(id: "huge", title: tr("Huge"))]
    }

    /// Detection first (the key empty), then the encodings subtitle files come in, by script.
    static var subtitleCharset: [PreferenceChoice] {
        [.init(id: "", title: tr("Automatic")),
         .init(id: "UTF-8", title: tr("Unicode (UTF-8)")),
         .init(id: "UTF-16", title: tr("Unicode (UTF-16)")),
         .init(id: "UTF-16LE", title: tr("Unicode (UTF-16 little-endian)")),
         .init(id: "UTF-16BE", title: tr("Unicode (UTF-16 big-endian)")),
         .init(id: "WINDOWS-1252", title: tr("Western (Windows-1252)")),
         .init(id: "ISO-8859-1", title: tr("Western (ISO-8859-1)")),
         .init(id: "ISO-8859-15", title: tr("Western (ISO-8859-15)")),
         .init(id: "WINDOWS-1250", title: tr("Central European (Windows-1250)")),
         .init(id: "ISO-8859-2", title: tr("Central European (ISO-8859-2)")),
         .init(id: "WINDOWS-1251", title: tr("Cyrillic (Windows-1251)")),
         .init(id: "KOI8-R", title: tr("Cyrillic (KOI8-R)")),
         .init(id: "ISO-8859-5", title: tr("Cyrillic (ISO-8859-5)")),
         .init(id: "WINDOWS-1253", title: tr("Greek (Windows-1253)")),
         .init(id: "ISO-8859-7", title: tr("Greek (ISO-8859-7)")),
         .init(id: "WINDOWS-1254", title: tr("Turkish (Windows-1254)")),
         .init(id: "ISO-8859-9", title: tr("Turkish (ISO-8859-9)")),
         .init(id: "WINDOWS-1255", title: tr("Hebrew (Windows-1255)")),
         .init(id: "ISO-8859-8", title: tr("Hebrew (ISO-8859-8)")),
         .init(id: "WINDOWS-1256", title: tr("Arabic (Windows-1256)")),
         .init(id: "ISO-8859-6", title: tr("Arabic (ISO-8859-6)")),
         .init(id: "GB18030", title: tr("Chinese, Simplified (GB18030)")),
         .init(id: "BIG5", title: tr("Chinese, Traditional (Big5)")),
         .init(id: "SHIFT_JIS", title: tr("Japanese (Shift_JIS)")),
         .init(id: "EUC-JP", title: tr("Japanese (EUC-JP)")),
         .init(id: "EUC-KR", title: tr("Korean (EUC-KR)"))]
    }
}
