/// The symbolic icon that says how loud the sound is, as GNOME's own volume controls draw it:
/// muted (or silent), low, medium, high. The volume button and the billboard use the same.
/// Threading: pure functions.
public enum VolumeIcon {
    public static func name(level: Double, muted: Bool) -> String {
        let percent = Int((level * 100).rounded())
        if muted || percent <= 0 { return "audio-volume-muted-symbolic" }
        if percent < 34 { return "audio-volume-low-symbolic" }
        if percent < 67 { return "audio-volume-medium-symbolic" }
        return "audio-volume-high-symbolic"
    }
}
