import Foundation
import ReelEngine

/// What a chapter is called where people read it: its title, or "Chapter N" when it has none
/// (N counts from 1 in start order), and what the billboard says on going there ("Chapter 2:
/// Main part"), so the list, the keys and a click on a mark all say the same.
/// Threading: pure functions.
public enum ChapterNames {
    /// The title, trimmed; nil when there is none or it is blank.
    public static func title(_ chapter: Chapter) -> String? {
        let title = chapter.title?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        return title.isEmpty ? nil : title
    }

    /// The chapter's name in a list: its title, else "Chapter N" (`number` from 1).
    public static func name(_ chapter: Chapter, number: Int) -> String {
        title(chapter) ?? String(format: tr("Chapter %ld"), number)
    }

    /// What the billboard says on going to the chapter.
    public static func announcement(_ chapter: Chapter, number: Int) -> String {
        // Translators: %1$ld is the chapter's number, %2$@ its title.
        title(chapter).map { String(format: tr("Chapter %1$ld: %2$@"), number, $0) } ?? String(format: tr("Chapter %ld"), number)
    }
}
