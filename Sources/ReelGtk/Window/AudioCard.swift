import CGtk
import Foundation
import ReelEngine

/// What a window playing sound alone shows instead of a black picture: the file's cover art
/// (or a sound icon when it has none), its title, and artist and album when the file names
/// them. It lives in the auxiliary-view slot, over the whole picture area.
/// Threading: main thread only; the cover is read on a utility thread.
@MainActor
final class AudioCard {
    private let widget: UnsafeMutablePointer<GtkWidget>
    private let picture: UnsafeMutablePointer<GtkWidget>
    private let icon: UnsafeMutablePointer<GtkWidget>
    private let title: UnsafeMutablePointer<GtkWidget>
    private let detail: UnsafeMutablePointer<GtkWidget>
    private weak var view: PlayerView?
    /// Which media the card is for: a cover read for an earlier one is not shown.
    private var generation = 0
    static let rect = AuxiliarySlot.Rect(x: 0, y: 0, width: 1, height: 1)

    init(view: PlayerView) {
        self.view = view
        widget = gtk_box_new(GTK_ORIENTATION_VERTICAL, 12)
        // Held by this object, not only by the overlay: taken off the picture and put back
        // later, it must still exist.
        g_object_ref_sink(widget.raw.cast(to: GObject.self))
        gtk_widget_set_valign(widget, GTK_ALIGN_CENTER)
        gtk_widget_set_halign(widget, GTK_ALIGN_CENTER)
        gtk_widget_set_margin_top(widget, 24)
        gtk_widget_set_margin_bottom(widget, 72)   // clear of the controls
        picture = gtk_picture_new()
        gtk_picture_set_can_shrink(picture.cast(), 1)
        gtk_picture_set_content_fit(picture.cast(), GTK_CONTENT_FIT_CONTAIN)
        gtk_widget_set_size_request(picture, 220, 220)
        gtk_widget_set_vexpand(picture, 1)
        Accessibility.setLabel(picture, tr("Cover art"))
        icon = gtk_image_new_from_icon_name("audio-x-generic-symbolic")
        gtk_image_set_pixel_size(icon.cast(), 128)
        gtk_widget_add_css_class(icon, "dim-label")
        title = gtk_label_new(nil)
        gtk_widget_add_css_class(title, "title-2")
        gtk_label_set_ellipsize(title.cast(), PANGO_ELLIPSIZE_END)
        detail = gtk_label_new(nil)
        gtk_widget_add_css_class(detail, "dim-label")
        gtk_label_set_ellipsize(detail.cast(), PANGO_ELLIPSIZE_END)
        for child in [picture, icon, title, detail] { gtk_box_append(widget.cast(), child) }
        gtk_widget_add_css_class(widget, "reel-audio-card")
        gtk_widget_set_can_target(widget, 0)
        Accessibility.setLabel(widget, tr("Now playing"))
    }

    /// Shows the card for `info` (sound without video), or takes it away.
    func update(for info: MediaInfo?) {
        guard let view else { return }
        generation += 1
        guard let info, info.videoStream == nil, info.audioStream != nil else {
            view.auxiliarySlot.remove(widget)
            return
        }
        gtk_label_set_text(title.cast(), info.displayTitle)
        let artist = info.metadata.first { $0.key.lowercased() == "artist" }?.value
        let album = info.metadata.first { $0.key.lowercased() == "album" }?.value
        let line = [artist, album].compactMap { $0 }.joined(separator: " — ")
        gtk_label_set_text(detail.cast(), line)
        gtk_widget_set_visible(detail, line.isEmpty ? 0 : 1)
        showCover(nil)
        view.auxiliarySlot.add(widget, at: Self.rect)
        guard info.streams.contains(where: \.isAttachedPicture), let source = try? MediaSource(parsing: info.source) else { return }
        let wanted = generation
        Thread.detachNewThread {
            let bytes = CoverArt.read(source)
            MainContext.async { [weak self] in
                guard let self, self.generation == wanted else { return }
                self.showCover(bytes)
            }
        }
    }

    private func showCover(_ bytes: Data?) {
        var texture: OpaquePointer?
        if let bytes, !bytes.isEmpty {
            let gbytes = bytes.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
            texture = gdk_texture_new_from_bytes(gbytes, nil)
            g_bytes_unref(gbytes)
        }
        gtk_picture_set_paintable(picture.cast(), texture)
        if let texture { g_object_unref(texture.raw.cast(to: GObject.self)) }
        gtk_widget_set_visible(picture, texture == nil ? 0 : 1)
        gtk_widget_set_visible(icon, texture == nil ? 1 : 0)
    }
}
