import CGtk
import Foundation
import ReelGtk

/// A combo row bound both ways to a string key through a table of choices: the row shows the
/// choices' titles and the key holds the chosen id. A value the table lacks (an encoding typed
/// with `gsettings`, or in an older Reel's text field) is added to the row under its own name,
/// so the row shows what the key says and choosing it again keeps it.
/// Threading: main thread only.
@MainActor
final class ChoiceRow {
    private let list: OpaquePointer
    private var ids: [String]
    /// Ids compared without case or surrounding spaces (the engine reads "utf-8" as "UTF-8").
    private let loose: Bool

    init(_ row: UnsafeMutableRawPointer, key: SettingKey, choices: [PreferenceChoice], settings: PlayerSettings, loose: Bool = false) {
        ids = choices.map(\.id)
        self.loose = loose
        list = gtk_string_list_new(nil)
        for choice in choices { gtk_string_list_append(list, choice.title) }
        adw_combo_row_set_model(row.cast(), list.raw.cast())
        g_object_unref(list.raw.cast(to: GObject.self))
        settings.bind(key, to: row, property: "selected", mapping: SettingMapping(
            toProperty: { [weak self] text in self.map { .index(UInt32($0.index(of: text))) } },
            toKey: { [weak self] value in
                guard let self, case .index(let index) = value, Int(index) < self.ids.count else { return nil }
                return self.ids[Int(index)]
            }))
    }

    /// The position of `id` in the row, added at the end when it is not there.
    private func index(of id: String) -> Int {
        if let found = ids.firstIndex(where: { matches($0, id) }) { return found }
        ids.append(id)
        gtk_string_list_append(list, id)
        return ids.count - 1
    }

    private func matches(_ choice: String, _ value: String) -> Bool {
        guard loose else { return choice == value }
        return choice.caseInsensitiveCompare(value.trimmingCharacters(in: .whitespaces)) == .orderedSame
    }
}
