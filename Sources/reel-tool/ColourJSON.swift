import ReelCommandLine
import ReelEngine

/// What Reel found of a video's colours and does to them (`ColourHandling`), as `info` prints it
/// for a stream and `frame` for a picture. Threading: pure functions.
enum ColourJSON {
    static func object(_ handling: ColourHandling) -> [String: Any] {
        var o: [String: Any] = ["transfer": handling.transfer.rawValue, "primaries": handling.primaries.rawValue,
                                "curve": handling.curve ?? "none", "mode": handling.mode.rawValue,
                                "gamut_mapped": handling.mapsGamut, "description": handling.description]
        if let signal = handling.signal { o["signal"] = signal.rawValue }
        if let peak = handling.peak { o["peak_nits"] = Output.round(peak, 4) }
        if let source = handling.peakSource { o["peak_source"] = source.rawValue }
        if let dv = handling.dolbyVision {
            o["dolby_vision"] = ["profile": dv.profileName, "plays_as": dv.playback.rawValue] as [String: Any]
        }
        return o
    }
}
