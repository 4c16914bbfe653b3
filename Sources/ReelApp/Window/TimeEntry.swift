import Foundation
import ReelEngine

/// What a person types to go to a moment (Go to Time, Ctrl+J), read as people write times:
/// `1:23:45`, `83:45`, `5025` (seconds), any of them with a fraction (`1:05.5`, or `1:05,5` as
/// many languages write it), a frame number `#1234`, or a share of the length `50 %`. Resolved
/// against the media's length and frame rate into seconds to seek to, or a reason in words.
/// Threading: a value type.
enum TimeEntry: Equatable {
    case seconds(Double)
    case frame(Int)
    /// 0…1 of the length.
    case share(Double)

    /// Why text cannot be gone to. Threading: a value type.
    enum Problem: Error, Equatable {
        case empty
        case unreadable(String)
        case beyondEnd(length: Double)
        case noFrameRate
        case noLength

        /// In words for the dialog, under the entry.
        var message: String {
            switch self {
            case .empty: tr("Type a time, such as 1:23:45")
            // Translators: %@ is what was typed; the examples are the forms Go to Time reads.
            case .unreadable(let text): String(format: tr("“%@” is not a time: type 1:23:45, 83:45, 5025, #1234 or 50 %%"), text)
            // Translators: %@ is the media's length, as 1:02:03.
            case .beyondEnd(let length): String(format: tr("It is only %@ long"), TimeFormat.clock(length))
            case .noFrameRate: tr("Its frame rate is not known: type a time instead")
            case .noLength: tr("Its length is not known: type a time instead")
            }
        }
    }

    /// The text read, or why it cannot be.
    static func parse(_ text: String) -> Result<TimeEntry, Problem> {
        let typed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !typed.isEmpty else { return .failure(.empty) }
        let unreadable = Problem.unreadable(typed)
        if typed.hasPrefix("#") {
            let digits = typed.dropFirst().trimmingCharacters(in: .whitespaces)
            guard !digits.isEmpty, digits.allSatisfy(\.isASCIIDigit), let n = Int(digits) else { return .failure(unreadable) }
            return .success(.frame(n))
        }
        if typed.hasSuffix("%") {
            guard let share = number(typed.dropLast().trimmingCharacters(in: .whitespaces)), share <= 100 else {
                return .failure(unreadable)
            }
            return .success(.share(share / 100))
        }
        let parts = typed.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard (1...3).contains(parts.count) else { return .failure(unreadable) }
        // Hours and minutes whole; the last part may have a fraction. After the first part,
        // minutes and seconds stay under 60, written with one or two digits.
        var total = 0.0
        for (i, part) in parts.enumerated() {
            let last = i == parts.count - 1
            guard let value = last ? number(part) : (part.allSatisfy(\.isASCIIDigit) ? Double(part) : nil),
                  !part.isEmpty else { return .failure(unreadable) }
            if i > 0 {
                let whole = part.prefix { $0.isASCIIDigit }
                guard (1...2).contains(whole.count), value < 60 else { return .failure(unreadable) }
            }
            total = total * 60 + value
        }
        return .success(.seconds(total))
    }

    /// A plain decimal number, 0 or more, with a point or a comma.
    private static func number(_ text: String) -> Double? {
        let normal = text.replacingOccurrences(of: ",", with: ".")
        guard !normal.isEmpty, normal.allSatisfy({ $0.isASCIIDigit || $0 == "." }),
              normal.filter({ $0 == "." }).count <= 1, normal != "." else { return nil }
        return Double(normal)
    }

    /// Where to seek: a frame's middle (its interval from N/rate holds it, whatever rounding
    /// its time stamp had), a share of the length, or the time itself; never past the end.
    func target(length: Double?, frameRate: Double?) -> Result<Double, Problem> {
        let seconds: Double
        switch self {
        case .seconds(let s): seconds = s
        case .frame(let n):
            guard let rate = frameRate, rate > 0 else { return .failure(.noFrameRate) }
            seconds = (Double(n) + 0.5) / rate
        case .share(let share):
            guard let length, length > 0 else { return .failure(.noLength) }
            return .success(share * length)
        }
        if let length, seconds > length { return .failure(.beyondEnd(length: length)) }
        return .success(seconds)
    }

    /// Text to seconds in one step, as the dialog needs it.
    static func resolve(_ text: String, length: Double?, frameRate: Double?) -> Result<Double, Problem> {
        parse(text).flatMap { $0.target(length: length, frameRate: frameRate) }
    }
}

private extension Character {
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
