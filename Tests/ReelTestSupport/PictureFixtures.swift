import Foundation

/// Pictures that are not clean SDR BT.709: HDR10 (PQ) with and without mastering metadata,
/// HLG, BT.2020 SDR and a PQ grey ramp, each made from an SDR source by zscale and libx265 as
/// a camera or a grading would tag it; and a letterboxed clip (the interlaced ones are in
/// InterlacedFixtures). 1280x720 (the letterboxed clip 640x360), one or two seconds. Threading: any test thread (see `Fixtures`).
extension Fixtures.Spec {
    /// testsrc2, one second: gradients, saturated colours and text.
    static let pictureSource = "testsrc2=s=1280x720:r=25:d=1,format=gbrp"
    /// The source to linear light in BT.709, 1.0 at reference white (203 cd/m², BT.2408).
    static let linearLight = "zscale=tin=bt709:pin=bt709:min=gbr:rin=full:t=linear:p=bt709:m=gbr:r=full:npl=203,"
        + "format=gbrpf32le"
    /// ST 2086 for a P3 display of 1000 cd/m² peak and 0.0001 black, as x265 takes it.
    static let masterDisplay = "G(13250,34500)B(7500,3000)R(34000,16000)WP(15635,16450)L(10000000,1)"

    /// 10-bit BT.2020 HEVC with `transfer` (x265's and FFmpeg's name), from `filter`.
    static func bt2020(_ name: String, transfer: String, filter: String, hdr10: Bool = false) -> Self {
        var x265 = "log-level=error:colorprim=bt2020:transfer=\(transfer):colormatrix=bt2020nc:range=limited"
        if hdr10 { x265 += ":hdr10=1:repeat-headers=1:master-display=\(masterDisplay):max-cll=1000,400" }
        return .init(name: name, ext: "mkv", arguments: [
            "-f", "lavfi", "-i", pictureSource, "-vf", filter,
            "-c:v", "libx265", "-preset", "ultrafast", "-crf", "12", "-x265-params", x265,
            "-color_primaries", "bt2020", "-color_trc", transfer, "-colorspace", "bt2020nc", "-color_range", "tv",
        ])
    }

    static func fromLinear(transfer: String) -> String {
        "\(linearLight),zscale=p=bt2020:t=\(transfer):m=bt2020nc:r=tv:npl=203,format=yuv420p10le"
    }

    /// HDR10: PQ, with the mastering display (1000 cd/m², P3) and MaxCLL/MaxFALL 1000/400 in every
    /// frame's SEI (none in the container: Matroska is not told).
    public static let pqWithMetadata = bt2020("hdr10-pq-metadata", transfer: "smpte2084",
                                              filter: fromLinear(transfer: "smpte2084"), hdr10: true)
    /// PQ with no metadata at all: the peak is the rule's default.
    public static let pqBare = bt2020("hdr10-pq-bare", transfer: "smpte2084", filter: fromLinear(transfer: "smpte2084"))
    /// HLG: reference white at 75 % (code 721).
    public static let hlg = bt2020("hlg", transfer: "arib-std-b67", filter: fromLinear(transfer: "arib-std-b67"))
    /// SDR in BT.2020 primaries (BT.2020's camera curve), as some cameras and broadcasts make it.
    public static let bt2020SDR = bt2020("bt2020-sdr", transfer: "bt2020-10", filter:
        "zscale=tin=bt709:pin=bt709:min=gbr:rin=full:t=bt2020-10:p=bt2020:m=bt2020nc:r=tv,format=yuv420p10le")

    /// Sixteen PQ grey steps from 0 to 1000 cd/m² left to right, lossless, no metadata.
    public static let pqRamp = Self(name: "pq-grey-ramp", ext: "mkv", arguments: [
        "-f", "lavfi", "-i", "color=black:s=1280x720:r=25:d=0.2,format=yuv420p10le",
        "-vf", "geq=lum='64+floor(X/80)*(722-64)/15':cb=512:cr=512",
        "-c:v", "libx265", "-preset", "ultrafast", "-x265-params",
        "log-level=error:lossless=1:colorprim=bt2020:transfer=smpte2084:colormatrix=bt2020nc:range=limited",
        "-color_primaries", "bt2020", "-color_trc", "smpte2084", "-colorspace", "bt2020nc", "-color_range", "tv",
    ])

    /// A 2.39:1 picture (640x268) letterboxed into 640x360 with 46 black lines above and below:
    /// small enough that the window shows it 1:1, so both drawing paths draw its turns, crops
    /// and zooms without shrinking it much (GL's bilinear sampling does not average).
    public static let letterboxed = Self(name: "letterboxed", ext: "mkv", arguments: [
        "-f", "lavfi", "-i", "testsrc2=s=640x268:r=25:d=2",
        "-vf", "pad=640:360:0:46:black,format=yuv420p",
        "-c:v", "libx264", "-preset", "ultrafast", "-crf", "12", "-g", "25",
    ])

    /// A zone plate: grey rings whose frequency rises from the top-left corner to near the
    /// sampling limit at the far edges, lossless. Drawn small, what a drawing path does with
    /// detail finer than its pixels shows as moiré or as an even grey.
    public static let zonePlate = Self(name: "zone-plate", ext: "mkv", arguments: [
        "-f", "lavfi", "-i", "color=black:s=640x360:r=25:d=1,format=yuv420p",
        "-vf", "geq=lum='128+100*sin(0.0025*(X*X+Y*Y))':cb=128:cr=128",
        "-c:v", "libx264", "-preset", "ultrafast", "-qp", "0",
    ])

    /// The colour fixtures, for sweeps.
    public static let colourTagged: [Self] = [pqWithMetadata, pqBare, hlg, bt2020SDR]
}
