import ReelGtk
import Testing

/// The volume button's icon (and the billboard's) as GNOME's volume controls draw it.
@Suite("Volume icon")
struct VolumeIconTests {
    @Test("Muted or silent, then low, medium and high by thirds of the level")
    func levels() {
        #expect(VolumeIcon.name(level: 1, muted: true) == "audio-volume-muted-symbolic")
        #expect(VolumeIcon.name(level: 0, muted: false) == "audio-volume-muted-symbolic")
        #expect(VolumeIcon.name(level: 0.05, muted: false) == "audio-volume-low-symbolic")
        #expect(VolumeIcon.name(level: 0.33, muted: false) == "audio-volume-low-symbolic")
        #expect(VolumeIcon.name(level: 0.5, muted: false) == "audio-volume-medium-symbolic")
        #expect(VolumeIcon.name(level: 0.66, muted: false) == "audio-volume-medium-symbolic")
        #expect(VolumeIcon.name(level: 0.7, muted: false) == "audio-volume-high-symbolic")
        #expect(VolumeIcon.name(level: 1, muted: false) == "audio-volume-high-symbolic")
    }
}
