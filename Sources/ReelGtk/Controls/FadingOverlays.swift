import CGtk

/// Widgets a host lays over the picture that show and fade with the controls bar (Reel's
/// header bar): each in a crossfading revealer placed by the widget's own alignment, holding
/// the controls up while the pointer is over it or one of its popovers is open. Hidden, they
/// take no clicks: those go to the picture.
/// Threading: main thread only.
@MainActor
final class FadingOverlays {
    private let overlay: UnsafeMutablePointer<GtkWidget>
    private var revealers: [UnsafeMutablePointer<GtkWidget>] = []
    private var shown = false
    /// The popovers of the overlays that are open: each counts once, however often GTK says so.
    private var openPopovers: Set<UnsafeMutableRawPointer> = []
    /// The pointer entered (true) or left (false) one of the overlays.
    var pointerOver: (@MainActor (Bool) -> Void)?
    /// A popover of an overlay opened (true) or closed (false).
    var popoverChanged: (@MainActor (Bool) -> Void)?

    init(overlay: UnsafeMutablePointer<GtkWidget>) {
        self.overlay = overlay
    }

    /// Lays `widget` over the picture, above the player's own overlays and below `below` (the
    /// notices), where its halign and valign put it (a header bar: valign start). Its popovers
    /// are the ones it holds now.
    func add(_ widget: UnsafeMutablePointer<GtkWidget>, below: UnsafeMutablePointer<GtkWidget>?) {
        let revealer = gtk_revealer_new()!
        gtk_revealer_set_transition_type(revealer.cast(), GTK_REVEALER_TRANSITION_TYPE_CROSSFADE)
        // As long as the controls bar's fade (player-view.ui): the two go as one.
        gtk_revealer_set_transition_duration(revealer.cast(), 250)
        gtk_widget_set_halign(revealer, gtk_widget_get_halign(widget))
        gtk_widget_set_valign(revealer, gtk_widget_get_valign(widget))
        gtk_revealer_set_child(revealer.cast(), widget)
        gtk_overlay_add_overlay(overlay.cast(), revealer)
        if let below { gtk_widget_insert_before(revealer, overlay, below) }

        let motion = gtk_event_controller_motion_new()!
        Signal.connectPoint(motion.raw, "enter") { [weak self] _, _ in self?.pointerOver?(true) }
        Signal.connect(motion.raw, "leave") { [weak self] in self?.pointerOver?(false) }
        gtk_widget_add_controller(revealer, motion.cast())
        watchPopovers(in: widget)

        revealers.append(revealer)
        reveal(revealer, shown)
    }

    /// How far down the overlays at the top edge reach (the header bar's height), shown or not.
    var topHeight: Double {
        revealers.filter { gtk_widget_get_valign($0) == GTK_ALIGN_START }.map { revealer -> Double in
            var height: gint = 0
            gtk_widget_measure(gtk_revealer_get_child(revealer.cast()), GTK_ORIENTATION_VERTICAL, -1, nil, &height, nil, nil)
            return Double(height)
        }.max() ?? 0
    }

    func show(_ on: Bool) {
        shown = on
        for revealer in revealers { reveal(revealer, on) }
    }

    private func reveal(_ revealer: UnsafeMutablePointer<GtkWidget>, _ on: Bool) {
        gtk_revealer_set_reveal_child(revealer.cast(), on ? 1 : 0)
        gtk_widget_set_can_target(revealer, on ? 1 : 0)
    }

    /// A menu button's popover is its child in the widget tree: every popover below `widget`.
    private func watchPopovers(in widget: UnsafeMutablePointer<GtkWidget>) {
        if g_type_check_instance_is_a(widget.cast(to: GTypeInstance.self), gtk_popover_get_type()) != 0 {
            let popover = widget.raw
            Signal.connectPointer(popover, "notify::visible") { [weak self] _ in
                guard let self else { return }
                let open = gtk_widget_get_visible(popover.cast()) != 0
                guard open != self.openPopovers.contains(popover) else { return }
                if open { self.openPopovers.insert(popover) } else { self.openPopovers.remove(popover) }
                self.popoverChanged?(open)
            }
        }
        var child = gtk_widget_get_first_child(widget)
        while let current = child {
            watchPopovers(in: current)
            child = gtk_widget_get_next_sibling(current)
        }
    }
}
