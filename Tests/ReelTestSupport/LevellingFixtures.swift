import Foundation

/// Sound for loudness levelling: quiet speech broken by loud bangs, as in a film at night.
/// Threading: values; generated like every fixture (see `Fixtures`).
extension Fixtures.Spec {
    /// Twelve seconds, stereo, 48 kHz FLAC (sample-exact). "Speech": a 200 Hz voice with its
    /// harmonics up to 1.6 kHz, in syllables at 4 a second and phrases of 1.7 s with pauses
    /// between, at −40 dBFS RMS (peaks at −29 dBFS). Every 6 s, from 5.4 s, a bang: noise from
    /// −6 dBFS decaying by 20 dB in 0.6 s. Unlevelled its loudness range is about 12 LU: the
    /// bangs are brief enough that the speech stays above EBU R128's relative gate.
    public static let speechAndBangs = Self(name: "speech-and-bangs", ext: "flac", arguments: [
        "-f", "lavfi", "-i", "aevalsrc=exprs='\(speechOrBang)|\(speechOrBang)':s=48000:d=12",
        "-c:a", "flac",
    ])

    private static let speech = "0.021*(sin(2*PI*200*t)+0.8*sin(2*PI*400*t)+0.6*sin(2*PI*800*t)+0.5*sin(2*PI*1600*t))"
        + "*pow(0.5+0.5*sin(2*PI*4*t),2)*gt(sin(2*PI*0.4*t),-0.5)"
    private static let bang = "0.5*(2*random(0)-1)*exp(-20*(mod(t,6)-5.4))"
    private static let speechOrBang = "if(gte(mod(t,6),5.4),\(bang),\(speech))"

    /// Four seconds of 1080p30 H.264 at 100 Mbit/s (noise keeps x264 from doing with less) and
    /// AAC: more picture than the demuxer's 16 MB budget in the 3 s of sound levelling has
    /// decoded ahead (50 MB).
    public static let highBitrate = Self(name: "high-bitrate-1080p", ext: "mp4", arguments: [
        "-f", "lavfi", "-i", "testsrc2=size=1920x1080:rate=30:duration=4,noise=alls=60:allf=t",
        "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=4",
        "-c:v", "libx264", "-preset", "ultrafast", "-b:v", "100M", "-maxrate", "100M", "-bufsize", "50M",
        "-pix_fmt", "yuv420p", "-c:a", "aac", "-b:a", "128k",
    ])
}
