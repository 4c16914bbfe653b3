import CGtk
import ReelEngine
import ReelGtk

/// The A-B loop's item in the main menu and in the picture's menu: one item each, on the
/// `ab-loop` action (as the Shift+L key), named for what it does next: set the start, set the
/// end, or clear the loop.
/// Threading: main thread only.
@MainActor
final class LoopMenu {
    private let sections: [OpaquePointer]
    private var shown: LoopSpan??

    init(builder: UIBuilder) {
        sections = ["loop-items", "context-loop-items"].map { OpaquePointer(builder.object($0)) }
        follow(nil)
    }

    /// Names the items for what a press does with `span` held now.
    func follow(_ span: LoopSpan?) {
        if let shown, shown == span { return }
        shown = .some(span)
        let label = Self.label(span)
        for section in sections {
            g_menu_remove_all(section)
            g_menu_append(section, label, "win.ab-loop")
        }
    }

    static func label(_ span: LoopSpan?) -> String {
        guard let span else { return tr("Set _Loop Start") }
        return span.end == nil ? tr("Set _Loop End") : tr("Clear _Loop")
    }
}
