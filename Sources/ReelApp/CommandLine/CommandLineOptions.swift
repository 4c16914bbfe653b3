import CGtk
import Foundation
import ReelEngine

/// Reel's command-line options, declared to GApplication so that `reel --help` lists them and a
/// second `reel --start 30 FILE` hands them, with its files, to the Reel already running (over
/// D-Bus, in the `command-line` signal of the primary instance). Read back from the option
/// dictionary GApplication fills: what acts on the window in the primary instance, what is for
/// measurement in the process that was started (those runs never hand on: see `Measure`).
/// Threading: main thread only.
@MainActor
enum CommandLineOptions {
    /// What acts on the window, in whichever instance ends up opening the files.
    struct Open: Equatable {
        /// Seconds into the first file (instead of where it was left, or its start).
        var start: Double?
        /// Opened paused; with no file, what plays pauses.
        var paused = false
        var fullscreen = false
    }

    /// `--report` and `--exit-after`: for measurement and scripts, in this process only.
    struct Measure: Equatable {
        var report = false
        var exitAfter: Double?
        var isRequested: Bool { report || exitAfter != nil }
    }

    private struct Entry {
        let name: String
        let argument: GOptionArg
        let description: String
        var argumentName: String? = nil
    }

    private static let entries: [Entry] = [
        // Numbers are taken as text: GApplication leaves a number option that is 0 out of the
        // options it hands on, and `--start 0` must still mean the start, not where it was left.
        Entry(name: "start", argument: G_OPTION_ARG_STRING, description: tr("Start this many seconds into the first file"),
              // Translators: the value of --start and --exit-after in reel --help.
              argumentName: tr("SECONDS")),
        Entry(name: "paused", argument: G_OPTION_ARG_NONE, description: tr("Open paused (with no file: pause what plays)")),
        Entry(name: "fullscreen", argument: G_OPTION_ARG_NONE, description: tr("Show the window fullscreen")),
        Entry(name: "version", argument: G_OPTION_ARG_NONE, description: tr("Show the version and quit")),
        Entry(name: "report", argument: G_OPTION_ARG_NONE,
              description: tr("Print JSON lines on standard output: the first picture drawn, a summary at quit")),
        Entry(name: "exit-after", argument: G_OPTION_ARG_STRING,
              description: tr("Quit this many seconds after the first picture is drawn"), argumentName: tr("SECONDS")),
    ]

    /// Declares the options and the help text. GLib keeps pointers to the strings, not copies,
    /// for the life of the process: they are duplicated once here and never freed.
    static func declare(on application: UnsafeMutablePointer<GApplication>) {
        func keep(_ text: String?) -> UnsafePointer<CChar>? { text.map { UnsafePointer(strdup($0)) } }
        var table = entries.map { entry in
            GOptionEntry(long_name: keep(entry.name), short_name: 0, flags: 0, arg: entry.argument, arg_data: nil,
                         description: keep(entry.description), arg_description: keep(entry.argumentName))
        }
        table.append(GOptionEntry(long_name: nil, short_name: 0, flags: 0, arg: G_OPTION_ARG_NONE, arg_data: nil,
                                  description: nil, arg_description: nil))
        g_application_add_main_option_entries(application, table)
        // Translators: what reel --help says goes after the options: files or web addresses.
        g_application_set_option_context_parameter_string(application, tr("[FILE|URL…]"))
        g_application_set_option_context_summary(application,
            tr("Plays video and sound from files and web addresses. When Reel is already running, the files and options go to its window."))
    }

    static func open(from options: Options) -> Open {
        Open(start: number("start", in: options), paused: flag("paused", in: options),
             fullscreen: flag("fullscreen", in: options))
    }

    static func measure(from options: Options) -> Measure {
        Measure(report: flag("report", in: options), exitAfter: number("exit-after", in: options))
    }

    static func wantsVersion(_ options: Options) -> Bool { flag("version", in: options) }

    /// What is wrong with the numbers given, said the way a person reads it; nil when nothing is.
    static func problem(in options: Options) -> String? {
        for name in ["start", "exit-after"] {
            guard let text = string(name, in: options) else { continue }
            if Double(text).map({ $0 >= 0 && $0.isFinite }) != true {
                // Translators: %1$@ is the option (--start), %2$@ what was given instead of a number.
                return String(format: tr("%1$@ needs a number of seconds, 0 or more (not “%2$@”)"), "--" + name, text)
            }
        }
        return nil
    }

    // MARK: Reading the dictionary

    /// `g_variant_dict_lookup` is variadic and Swift cannot call it; the value lookup can.
    private static func value(_ name: String, in options: Options) -> OpaquePointer? {
        g_variant_dict_lookup_value(options, name, nil)
    }

    private static func flag(_ name: String, in options: Options) -> Bool {
        guard let variant = value(name, in: options) else { return false }
        defer { g_variant_unref(variant) }
        return type(of: variant) == "b" && g_variant_get_boolean(variant) != 0
    }

    /// A number of seconds given as text (checked by `problem` first).
    private static func number(_ name: String, in options: Options) -> Double? {
        string(name, in: options).flatMap(Double.init).flatMap { $0 >= 0 && $0.isFinite ? $0 : nil }
    }

    private static func string(_ name: String, in options: Options) -> String? {
        guard let variant = value(name, in: options) else { return nil }
        defer { g_variant_unref(variant) }
        guard type(of: variant) == "s" else { return nil }
        return String(cString: g_variant_get_string(variant, nil))
    }

    typealias Options = UnsafeMutablePointer<GVariantDict>

    private static func type(of variant: OpaquePointer) -> String { String(cString: g_variant_get_type_string(variant)) }
}
