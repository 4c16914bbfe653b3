import Foundation
import ReelEngine

/// A sound stream's speakers in words: "mono" and "stereo" in the person's language, other
/// layouts by FFmpeg's names ("5.1(side)", the same in every language), else a count.
/// Threading: stateless.
enum ChannelNames {
    static func describe(channels: Int?, layout: String?) -> String? {
        // FFmpeg names a layout without speaker positions "3 channels": counted here instead.
        let named = layout.flatMap { $0.isEmpty || $0.hasSuffix(" channels") ? nil : $0 }
        switch named ?? (channels == 1 ? "mono" : channels == 2 ? "stereo" : nil) {
        case "mono": return tr("mono")
        case "stereo": return tr("stereo")
        case let other?: return other
        case nil: break
        }
        guard let channels else { return nil }
        return String(format: trn("%ld channel", "%ld channels", channels), channels)
    }
}
