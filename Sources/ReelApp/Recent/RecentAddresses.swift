import CGtk
import ReelGtk

/// Open an Address's list of the addresses played lately (newest first), under the entry.
/// Threading: main thread only.
@MainActor
enum RecentAddresses {
    static func fill(_ builder: UIBuilder, _ entries: [RecentEntry], open: @escaping @MainActor (String) -> Void) {
        let box = builder.widget("recent-addresses-box")
        let list = builder.widget("recent-addresses")
        let addresses = RecentList.pick(entries, limit: RecentList.addressLength, addressesOnly: true)
        for entry in addresses {
            let label = gtk_label_new(entry.source)!
            gtk_label_set_xalign(label.cast(), 0)
            // The address's end (the file) says most: the middle goes when it is too long.
            gtk_label_set_ellipsize(label.cast(), PANGO_ELLIPSIZE_MIDDLE)
            gtk_widget_set_margin_start(label, 12)
            gtk_widget_set_margin_end(label, 12)
            gtk_widget_set_margin_top(label, 10)
            gtk_widget_set_margin_bottom(label, 10)
            gtk_widget_set_tooltip_text(label, entry.name == entry.source ? entry.source : "\(entry.name)\n\(entry.source)")
            let row = gtk_list_box_row_new()!
            gtk_list_box_row_set_child(row.cast(), label)
            Accessibility.setLabel(row, entry.source)
            gtk_list_box_append(list.cast(), row)
        }
        Signal.connectPointer(list.raw, "row-activated") { row in
            guard let row else { return }
            let index = Int(gtk_list_box_row_get_index(row.assumingMemoryBound(to: GtkListBoxRow.self)))
            if addresses.indices.contains(index) { open(addresses[index].source) }
        }
        gtk_widget_set_visible(box, addresses.isEmpty ? 0 : 1)
    }
}
