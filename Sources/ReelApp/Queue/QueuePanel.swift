import CGtk
import Foundation
import ReelEngine
import ReelGtk

/// The queue as a person sees and edits it: a popover from the header bar's Queue button
/// with the items (the playing one marked), a double click or Enter plays one, dragging a row
/// onto another moves it there, each row's × removes it; Add… appends files, and the loop
/// mode, shuffle and "stop after this one" sit above the list.
/// Threading: main thread only.
@MainActor
final class QueuePanel {
    let button: UnsafeMutablePointer<GtkWidget>
    private let popover: UnsafeMutablePointer<GtkWidget>
    private let list: UnsafeMutablePointer<GtkWidget>
    private let loopButton: UnsafeMutablePointer<GtkWidget>
    private let shuffleButton: UnsafeMutablePointer<GtkWidget>
    private let stopAfterButton: UnsafeMutablePointer<GtkWidget>
    private let emptyLabel: UnsafeMutablePointer<GtkWidget>
    private unowned let controller: QueueController
    private var updating = false
    /// Asks for files to add (the window's file chooser).
    var chooseFiles: (@MainActor (@escaping @MainActor ([String]) -> Void) -> Void)?
    /// Asks where to save the queue as a playlist (the window's save dialog).
    var choosePlaylist: (@MainActor (@escaping @MainActor (String) -> Void) -> Void)?
    private let saveButton: UnsafeMutablePointer<GtkWidget>

    init(controller: QueueController) {
        self.controller = controller
        button = gtk_menu_button_new()
        gtk_menu_button_set_icon_name(button.cast(), "view-list-symbolic")
        gtk_widget_set_tooltip_text(button, tr("Queue"))
        Accessibility.setLabel(button, tr("Queue"))

        popover = gtk_popover_new()
        gtk_widget_add_css_class(popover, "reel-queue")
        let box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 6)!
        gtk_widget_set_size_request(box, 340, -1)

        let bar = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6)!
        loopButton = gtk_button_new()
        shuffleButton = gtk_toggle_button_new()
        gtk_button_set_icon_name(shuffleButton.cast(), "media-playlist-shuffle-symbolic")
        gtk_widget_set_tooltip_text(shuffleButton, tr("Shuffle"))
        Accessibility.setLabel(shuffleButton, tr("Shuffle"))
        stopAfterButton = gtk_check_button_new_with_label(tr("Stop after this one"))
        let add = gtk_button_new_with_mnemonic(tr("_Add…"))!
        Accessibility.setLabel(add, tr("Add to the queue"))
        saveButton = gtk_button_new_from_icon_name("document-save-as-symbolic")
        gtk_widget_set_tooltip_text(saveButton, tr("Save the queue as a playlist"))
        Accessibility.setLabel(saveButton, tr("Save the queue as a playlist"))
        gtk_box_append(bar.cast(), loopButton)
        gtk_box_append(bar.cast(), shuffleButton)
        gtk_box_append(bar.cast(), stopAfterButton)
        let spacer = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0)!
        gtk_widget_set_hexpand(spacer, 1)
        gtk_box_append(bar.cast(), spacer)
        gtk_box_append(bar.cast(), saveButton)
        gtk_box_append(bar.cast(), add)
        gtk_box_append(box.cast(), bar)

        list = gtk_list_box_new()
        gtk_list_box_set_selection_mode(list.cast(), GTK_SELECTION_SINGLE)
        gtk_list_box_set_activate_on_single_click(list.cast(), 0)
        gtk_widget_add_css_class(list, "boxed-list")
        Accessibility.setLabel(list, tr("Queue items"))
        emptyLabel = gtk_label_new(tr("The queue is empty. Open or drop several files, a folder or a playlist."))
        gtk_label_set_wrap(emptyLabel.cast(), 1)
        gtk_widget_add_css_class(emptyLabel, "dim-label")
        gtk_list_box_set_placeholder(list.cast(), emptyLabel)
        let scroller = gtk_scrolled_window_new()!
        gtk_scrolled_window_set_policy(scroller.cast(), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        gtk_scrolled_window_set_propagate_natural_height(scroller.cast(), 1)
        gtk_scrolled_window_set_max_content_height(scroller.cast(), 360)
        gtk_scrolled_window_set_child(scroller.cast(), list)
        gtk_box_append(box.cast(), scroller)

        gtk_popover_set_child(popover.cast(), box)
        gtk_menu_button_set_popover(button.cast(), popover)

        Signal.connect(loopButton.raw, "clicked") { [weak self] in self?.cycleLoop() }
        Signal.connect(shuffleButton.raw, "toggled") { [weak self] in
            guard let self, !self.updating else { return }
            self.controller.shuffle = gtk_toggle_button_get_active(self.shuffleButton.cast()) != 0
        }
        Signal.connect(stopAfterButton.raw, "toggled") { [weak self] in
            guard let self, !self.updating else { return }
            self.controller.stopAfterCurrent = gtk_check_button_get_active(self.stopAfterButton.cast()) != 0
        }
        Signal.connect(add.raw, "clicked") { [weak self] in
            guard let self else { return }
            gtk_popover_popdown(self.popover.cast())
            self.chooseFiles? { [weak self] names in self?.controller.append(names) }
        }
        Signal.connect(saveButton.raw, "clicked") { [weak self] in
            guard let self else { return }
            gtk_popover_popdown(self.popover.cast())
            self.choosePlaylist? { [weak self] path in self?.controller.save(to: path) }
        }
        Signal.connectPointer(list.raw, "row-activated") { [weak self] row in
            guard let self, let row else { return }
            let position = Int(gtk_list_box_row_get_index(row.cast())) - self.leadingRows
            guard self.shown.indices.contains(self.shown.lowerBound + position) else { return }
            self.controller.select(self.shown.lowerBound + position)
        }
        controller.observe { [weak self] in self?.scheduleRebuild() }
        rebuild()
    }

    private var pendingRebuild: Timer?
    /// The items that have rows: at most `shownRows`, around the current one. A row is a
    /// handful of widgets (about 20 KB); 100,000 of them took 2 GB and seconds per change.
    private var shown = 0..<0
    /// Rows above the first item's (the note of items not shown before them).
    private var leadingRows = 0
    nonisolated static let shownRows = 500

    /// Which items get rows: `shownRows` of them, starting a fifth of that before the current one.
    nonisolated static func shownRange(count: Int, current: Int?) -> Range<Int> {
        guard count > shownRows else { return 0..<count }
        let start = max(0, min((current ?? 0) - shownRows / 5, count - shownRows))
        return start..<(start + shownRows)
    }

    /// Rebuilds after the current event: a change often comes from a row's own button or
    /// drop handler, and that row must outlive its handler.
    private func scheduleRebuild() {
        guard pendingRebuild == nil else { return }
        pendingRebuild = Timer.once(after: 0) { [weak self] in
            self?.pendingRebuild = nil
            self?.rebuild()
        }
    }

    private func cycleLoop() {
        let all = LoopMode.allCases
        controller.loopMode = all[(all.firstIndex(of: controller.loopMode)! + 1) % all.count]
    }

    /// Rows for every item, and the toggles as the queue has them.
    private func rebuild() {
        updating = true
        defer { updating = false }
        let queue = controller.queue
        let (icon, label): (String, String) = switch queue.loop {
        case .none: ("media-playlist-consecutive-symbolic", tr("No loop"))
        case .track: ("media-playlist-repeat-song-symbolic", tr("Loop this one"))
        case .playlist: ("media-playlist-repeat-symbolic", tr("Loop the queue"))
        }
        gtk_button_set_icon_name(loopButton.cast(), icon)
        gtk_widget_set_tooltip_text(loopButton, label)
        Accessibility.setLabel(loopButton, label)
        gtk_toggle_button_set_active(shuffleButton.cast(), queue.shuffle ? 1 : 0)
        gtk_widget_set_sensitive(saveButton, queue.items.isEmpty ? 0 : 1)
        gtk_check_button_set_active(stopAfterButton.cast(), queue.stopAfterCurrent ? 1 : 0)

        while let row = gtk_widget_get_first_child(list), row != emptyLabel {
            gtk_list_box_remove(list.cast(), row)
        }
        shown = Self.shownRange(count: queue.items.count, current: queue.current)
        leadingRows = shown.lowerBound > 0 ? 1 : 0
        if shown.lowerBound > 0 {
            let text = trn("%ld earlier item not shown", "%ld earlier items not shown", shown.lowerBound)
            gtk_list_box_append(list.cast(), noteRow(String(format: text, shown.lowerBound)))
        }
        for index in shown {
            gtk_list_box_append(list.cast(), makeRow(index: index, item: queue.items[index].description, current: index == queue.current))
        }
        let after = queue.items.count - shown.upperBound
        if after > 0 {
            let text = trn("%ld more item not shown", "%ld more items not shown", after)
            gtk_list_box_append(list.cast(), noteRow(String(format: text, after)))
        }
    }

    /// A row that only says something (items left out), never activated or selected.
    private func noteRow(_ text: String) -> UnsafeMutablePointer<GtkWidget> {
        let label = gtk_label_new(text)!
        gtk_widget_add_css_class(label, "dim-label")
        let row = gtk_list_box_row_new()!
        gtk_list_box_row_set_child(row.cast(), label)
        gtk_list_box_row_set_activatable(row.cast(), 0)
        gtk_list_box_row_set_selectable(row.cast(), 0)
        return row
    }

    static func displayName(_ item: String) -> String {
        if item.contains("://"), let url = URL(string: item), !url.lastPathComponent.isEmpty, url.lastPathComponent != "/" {
            return url.lastPathComponent.removingPercentEncoding ?? url.lastPathComponent
        }
        return (item as NSString).lastPathComponent
    }

    private func makeRow(index: Int, item: String, current: Bool) -> UnsafeMutablePointer<GtkWidget> {
        let row = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 8)!
        gtk_widget_set_margin_start(row, 6)
        gtk_widget_set_margin_end(row, 2)
        let marker = gtk_image_new_from_icon_name(current ? "media-playback-start-symbolic" : nil)!
        gtk_widget_set_size_request(marker, 16, 16)
        let name = Self.displayName(item)
        let label = gtk_label_new(name)!
        gtk_label_set_xalign(label.cast(), 0)
        gtk_label_set_ellipsize(label.cast(), PANGO_ELLIPSIZE_MIDDLE)
        gtk_widget_set_hexpand(label, 1)
        gtk_widget_set_tooltip_text(label, item)
        if current { gtk_widget_add_css_class(label, "heading") }
        let remove = gtk_button_new_from_icon_name("window-close-symbolic")!
        gtk_widget_add_css_class(remove, "flat")
        gtk_widget_set_tooltip_text(remove, tr("Remove from the queue"))
        // Translators: the remove button of a queue row; %@ is the item's name.
        Accessibility.setLabel(remove, String(format: tr("Remove %@"), name))
        Signal.connect(remove.raw, "clicked") { [weak self] in self?.controller.remove(at: index) }
        gtk_box_append(row.cast(), marker)
        gtk_box_append(row.cast(), label)
        gtk_box_append(row.cast(), remove)
        let listRow = gtk_list_box_row_new()!
        gtk_list_box_row_set_child(listRow.cast(), row)
        // Translators: the queue row of the item playing; %@ is its name.
        Accessibility.setLabel(listRow, current ? String(format: tr("%@ (playing)"), name) : name)
        makeDraggable(listRow, index: index)
        return listRow
    }

    /// Rows carry their index as a plain unsigned integer: no other drop target in the window
    /// takes that type (the window itself takes files and text), so a row dropped anywhere
    /// but on another row does nothing.
    private func makeDraggable(_ row: UnsafeMutablePointer<GtkWidget>, index: Int) {
        var value = GValue()
        g_value_init(&value, reel_type_uint())
        g_value_set_uint(&value, guint(index))
        let source = gtk_drag_source_new()!
        gtk_drag_source_set_actions(source, GDK_ACTION_MOVE)
        gtk_drag_source_set_content(source, gdk_content_provider_new_for_value(&value))
        g_value_unset(&value)
        gtk_widget_add_controller(row, source.cast())

        let target = gtk_drop_target_new(reel_type_uint(), GDK_ACTION_MOVE)!
        Signal.connectDrop(target.raw) { [weak self] value in
            guard let self, let value else { return false }
            let from = Int(g_value_get_uint(value))
            guard from != index else { return false }
            self.controller.move(from: from, to: index)
            return true
        }
        gtk_widget_add_controller(row, target.cast())
    }
}
