import CGtk
import Foundation
import ReelEngine
import ReelGtk

/// The Open File, Open URL and Save Picture dialogs. Threading: main thread only.
@MainActor
enum OpenDialogs {
    /// A native file chooser for media files and playlists (GtkFileChooserNative: the portal
    /// inside Flatpak); several may be chosen. `done` gets paths (URIs for files without one).
    static func chooseFiles(parent: UnsafeMutablePointer<GtkWidget>, title: String = tr("Open Videos"), accept: String = tr("_Open"),
                            _ done: @escaping @MainActor ([String]) -> Void) {
        let chooser = gtk_file_chooser_native_new(title, parent.cast(), GTK_FILE_CHOOSER_ACTION_OPEN, accept, tr("_Cancel"))!
        gtk_file_chooser_set_select_multiple(chooser.raw.cast(), 1)
        addFilter(chooser, tr("Videos, sound and playlists"), mimeTypes: ["video/*", "audio/*", "application/x-mpegurl",
                                                                     "application/vnd.apple.mpegurl", "audio/x-mpegurl",
                                                                     "application/xspf+xml", "audio/x-scpls", "application/dash+xml"],
                  suffixes: ["mpd"])
        addFilter(chooser, tr("All files"), patterns: ["*"])
        Signal.connectInt(chooser.raw, "response") { response in
            defer { g_object_unref(chooser.raw.cast(to: GObject.self)) }
            guard response == Int(GTK_RESPONSE_ACCEPT.rawValue), let files = gtk_file_chooser_get_files(chooser.raw.cast()) else { return }
            defer { g_object_unref(files.raw.cast(to: GObject.self)) }
            var names: [String] = []
            for i in 0..<g_list_model_get_n_items(files) {
                guard let item = g_list_model_get_item(files, i) else { continue }
                let file = OpaquePointer(item)
                if let name = GString.take(g_file_get_path(file)) ?? GString.take(g_file_get_uri(file)) { names.append(name) }
                g_object_unref(item.cast(to: GObject.self))
            }
            if !names.isEmpty { done(names) }
        }
        gtk_native_dialog_show(chooser.raw.cast())
    }

    /// A small dialog asking for an address (ui/open-url.ui): what Reel plays, or the full path
    /// of a file (`AddressCheck`). Open stays insensitive until the entry holds one; Enter on
    /// anything else says what is wrong under the entry, which then follows the typing, and
    /// nothing opens. Escape closes it, as every dialog.
    /// With "download for offline" ticked, a web address is fetched whole into the stream cache
    /// first (progress in the dialog, Cancel stops it), then `done` plays it from there.
    /// The entry starts with the address on the clipboard when there is one (selected: typing
    /// replaces it), and the last addresses played are listed under it, a click opening one.
    static func askForURL(parent: UnsafeMutablePointer<GtkWidget>, cache: StreamCacheOptions, recent: [RecentEntry] = [],
                          _ done: @escaping @MainActor (String) -> Void) {
        let builder = UIBuilder(.openURL)
        let dialog = builder.widget("open-url-dialog")
        let entry = builder.widget("url-entry")
        let open = builder.widget("open-url-button")
        let cancel = builder.widget("cancel-url-button")
        let problem = builder.widget("url-problem")
        let offline = OfflineFetch(builder: builder, cache: cache)
        var complained = false
        func verdict() -> AddressCheck { AddressCheck.check(String(cString: gtk_editable_get_text(OpaquePointer(entry)))) }
        // GNOME's way: the entry in its error style with a short line under it, the Open button
        // insensitive meanwhile. Said once Open was asked for, so that typing is not scolded.
        func show(_ check: AddressCheck) {
            gtk_widget_set_sensitive(open, check.isValid ? 1 : 0)
            let message = complained ? check.message : nil
            gtk_label_set_text(problem.cast(), message ?? "")
            gtk_widget_set_visible(problem, message == nil ? 0 : 1)
            if message == nil { gtk_widget_remove_css_class(entry, "error") } else { gtk_widget_add_css_class(entry, "error") }
        }
        func accept() {
            guard !offline.isRunning else { return }
            let check = verdict()
            guard case .valid(let address) = check else {
                if check != .empty { complained = true }
                show(check)
                // Back to the entry (from the offline box), the text as it was typed, for mending.
                gtk_entry_grab_focus_without_selecting(entry.cast())
                return
            }
            if offline.isWanted, (try? MediaSource(parsing: address))?.isRemote == true {
                offline.start(address) { gtk_window_destroy(dialog.cast()); done(address) }
                return
            }
            gtk_window_destroy(dialog.cast())
            done(address)
        }
        func dismiss() { offline.cancel(); gtk_window_destroy(dialog.cast()) }
        RecentAddresses.fill(builder, recent) { address in
            gtk_editable_set_text(OpaquePointer(entry), address)
            accept()
        }
        Signal.connect(entry.raw, "changed") { show(verdict()) }
        Signal.connect(open.raw, "clicked") { accept() }
        Signal.connect(entry.raw, "activate") { accept() }
        Signal.connect(cancel.raw, "clicked") { dismiss() }
        // Enter opens from anywhere in the dialog, as people expect: with the focus on the
        // "download for offline" box (ticked with its Alt+D) GTK would toggle it off instead.
        SmallDialog.present(dialog, builder: builder, parent: parent, dismiss: dismiss) { keyval in
            guard keyval == UInt32(GDK_KEY_Return) || keyval == UInt32(GDK_KEY_KP_Enter) else { return false }
            // Cancel, and a recent address's row, take their own Enter.
            if let focus = gtk_window_get_focus(dialog.cast()),
               focus == cancel || gtk_widget_is_ancestor(focus, builder.widget("recent-addresses")) != 0 { return false }
            accept()
            return true
        }
        // What a browser's address bar copied, offered as GNOME Videos and Celluloid do; only
        // into an entry still empty (the person may have started typing meanwhile).
        ClipboardText.read(for: dialog) { text in
            guard let address = ClipboardAddress.offer(text),
                  String(cString: gtk_editable_get_text(OpaquePointer(entry))).isEmpty else { return }
            gtk_editable_set_text(OpaquePointer(entry), address)
            gtk_editable_select_region(OpaquePointer(entry), 0, -1)
        }
    }

    /// A native save dialog for a PNG, starting in the Pictures folder with `suggestedName`.
    static func choosePNGDestination(parent: UnsafeMutablePointer<GtkWidget>, suggestedName: String,
                                     _ done: @escaping @MainActor (String) -> Void) {
        let chooser = gtk_file_chooser_native_new(tr("Save Picture"), parent.cast(), GTK_FILE_CHOOSER_ACTION_SAVE,
                                                  tr("_Save"), tr("_Cancel"))!
        gtk_file_chooser_set_current_name(chooser.raw.cast(), suggestedName)
        if let pictures = g_get_user_special_dir(G_USER_DIRECTORY_PICTURES) {
            let folder = g_file_new_for_path(pictures)!
            gtk_file_chooser_set_current_folder(chooser.raw.cast(), folder, nil)
            g_object_unref(folder.raw.cast(to: GObject.self))
        }
        addFilter(chooser, tr("PNG images"), mimeTypes: ["image/png"])
        show(chooser, acceptingURIs: false, done)
    }

    /// A native save dialog for a playlist, "Queue.m3u8" in the Videos folder; an XSPF filter
    /// beside the M3U8 one, and a name without a playlist's extension gets the chosen filter's.
    static func choosePlaylistDestination(parent: UnsafeMutablePointer<GtkWidget>,
                                          _ done: @escaping @MainActor (String) -> Void) {
        let chooser = gtk_file_chooser_native_new(tr("Save Queue"), parent.cast(), GTK_FILE_CHOOSER_ACTION_SAVE,
                                                  tr("_Save"), tr("_Cancel"))!
        // Translators: the suggested file name of a saved queue (keep the .m3u8).
        gtk_file_chooser_set_current_name(chooser.raw.cast(), tr("Queue.m3u8"))
        if let videos = g_get_user_special_dir(G_USER_DIRECTORY_VIDEOS) {
            let folder = g_file_new_for_path(videos)!
            gtk_file_chooser_set_current_folder(chooser.raw.cast(), folder, nil)
            g_object_unref(folder.raw.cast(to: GObject.self))
        }
        addFilter(chooser, tr("M3U8 playlists"), patterns: ["*.m3u8", "*.m3u"])
        let xspfName = tr("XSPF playlists")
        addFilter(chooser, xspfName, patterns: ["*.xspf"])
        show(chooser, acceptingURIs: false) { path in
            guard PlaylistFile.Format(path: path) == nil else { return done(path) }
            // By name: the dialog shown may hold copies of the filters.
            let chosen = gtk_file_chooser_get_filter(chooser.raw.cast()).flatMap { gtk_file_filter_get_name($0) }
            let xspf = chosen.map { String(cString: $0) == xspfName } ?? false
            done(path + (xspf ? ".xspf" : ".m3u8"))
        }
    }

    /// A native chooser for one file to add to what plays (a subtitle or a sound file): the kind
    /// named `kind` (by MIME type or suffix) and All files; `done` gets its path (or its URI when
    /// `acceptingURIs` and it has no path).
    static func chooseTrackFile(parent: UnsafeMutablePointer<GtkWidget>, title: String, kind: String, mimeTypes: [String] = [],
                                suffixes: [String] = [], acceptingURIs: Bool, _ done: @escaping @MainActor (String) -> Void) {
        let chooser = gtk_file_chooser_native_new(title, parent.cast(), GTK_FILE_CHOOSER_ACTION_OPEN, tr("_Add"), tr("_Cancel"))!
        addFilter(chooser, kind, mimeTypes: mimeTypes, suffixes: suffixes)
        addFilter(chooser, tr("All files"), patterns: ["*"])
        show(chooser, acceptingURIs: acceptingURIs, done)
    }

    @discardableResult
    private static func addFilter(_ chooser: OpaquePointer, _ name: String, mimeTypes: [String] = [],
                                  patterns: [String] = [], suffixes: [String] = []) -> OpaquePointer {
        let filter = gtk_file_filter_new()!
        gtk_file_filter_set_name(filter, name)
        for type in mimeTypes { gtk_file_filter_add_mime_type(filter, type) }
        for pattern in patterns { gtk_file_filter_add_pattern(filter, pattern) }
        for suffix in suffixes { gtk_file_filter_add_suffix(filter, suffix) }
        gtk_file_chooser_add_filter(chooser.raw.cast(), filter)
        return filter
    }

    /// Shows the chooser and hands the chosen file's path (or, when `acceptingURIs`, its URI
    /// if it has no local path) to `done`; the chooser frees itself when answered.
    private static func show(_ chooser: OpaquePointer, acceptingURIs: Bool, _ done: @escaping @MainActor (String) -> Void) {
        Signal.connectInt(chooser.raw, "response") { response in
            if response == Int(GTK_RESPONSE_ACCEPT.rawValue), let file = gtk_file_chooser_get_file(chooser.raw.cast()) {
                let path = GString.take(g_file_get_path(file)) ?? (acceptingURIs ? GString.take(g_file_get_uri(file)) : nil)
                if let path { done(path) }
                g_object_unref(file.raw.cast(to: GObject.self))
            }
            g_object_unref(chooser.raw.cast(to: GObject.self))
        }
        gtk_native_dialog_show(chooser.raw.cast())
    }
}
