import Foundation

/// FFmpeg filters that do what mpv's video equalizer does, the oracle for Reel's: FFmpeg's `eq`
/// and `hue` work on 8-bit Y′CbCr (contrast about code 127.5, hue the other way round), mpv's
/// brightness and gamma act on R′G′B′. Threading: stateless.
public enum EqualizerForms {
    /// mpv's contrast c scales Y′ and chroma about black; FFmpeg's `eq` scales Y′ about code
    /// 127.5, so its brightness moves the pivot down to 16 (111.5 = 127.5 − 16). On Y′CbCr.
    public static func contrast(_ c: Double) -> String {
        "eq=contrast=\(c):brightness=\(-111.5 * (1 - c) / 255):saturation=\(c)"
    }

    /// mpv's hue v (−100…100) on Y′CbCr: FFmpeg's `hue` turns the other way.
    public static func hue(_ v: Int) -> String { "hue=H=\(-Double(v) / 100)*PI" }

    /// mpv's brightness v on R′G′B′: v/100 of the range added to each channel.
    public static func brightness(_ v: Int) -> String { eachChannel("val+\(Double(v) * 2.55)") }

    /// mpv's gamma v on R′G′B′: each channel to the power 1/8^(v/100).
    public static func gamma(_ v: Int) -> String { eachChannel("255*pow(val/255\\,1/\(pow(8, Double(v) / 100)))") }

    /// Each channel through `expression` of `val` (0…255).
    static func eachChannel(_ expression: String) -> String {
        "lutrgb=r='\(expression)':g='\(expression)':b='\(expression)'"
    }
}
