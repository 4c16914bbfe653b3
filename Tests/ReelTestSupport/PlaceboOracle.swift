import Foundation

/// The tone-mapping reference: FFmpeg's `libplacebo` filter (libplacebo, as mpv uses it) on
/// software Vulkan (Mesa's lavapipe), told every parameter so that another libplacebo's
/// defaults cannot move it: BT.2390 without peak detection, to 8-bit BT.709 RGBA with the
/// Dolby Vision RPU ignored. Without Vulkan it throws `SetupError`: a test that needs it fails,
/// never passes. Threading: any test thread; references are cached like the fixtures.
public enum PlaceboOracle {
    /// The machine cannot run the oracle. Threading: a value type.
    public struct SetupError: Error, CustomStringConvertible {
        public let description: String
    }

    /// How close to Reel's own arithmetic the reference is drawn. Threading: a value type.
    public enum Variant: String, Sendable {
        /// libplacebo's defaults (blue-noise dither, spline36 scaling of chroma): the bar.
        case defaults
        /// No dither and bilinear chroma, as Reel draws: only the colour mathematics differs.
        case tight
    }

    private static let vulkan = Once { () throws -> Void in
        let probe = try Command.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin",
                                     "-init_hw_device", "vulkan=vk:0", "-f", "lavfi", "-i", "nullsrc=s=16x16:d=0.04",
                                     "-f", "null", "-"], check: false)
        if probe.status != 0 {
            throw SetupError(description: "no Vulkan device for FFmpeg's libplacebo filter "
                             + "(install mesa-vulkan-drivers, scripts/install-deps.sh): \(probe.errors.suffix(500))")
        }
    }

    /// Frame `index` of `source` as libplacebo shows it on an SDR BT.709 display: a PNG's path.
    /// `size` scales it there too (libplacebo's own scaling, in linear light), as a thumbnail.
    /// `adjustment`: libplacebo's colour adjustment options (`contrast=1.2:saturation=0.8`…).
    public static func reference(of source: String, frame index: Int, variant: Variant = .defaults,
                                 size: (width: Int, height: Int)? = nil, adjustment: String? = nil) throws -> String {
        try vulkan.get()
        var options = "tonemapping=bt.2390:peak_detect=0:colorspace=bt709:color_primaries=bt709:color_trc=bt709"
            + ":range=pc:format=rgba:apply_dolbyvision=0"
        if variant == .tight { options += ":dithering=none:upscaler=bilinear" }
        if let size { options += ":w=\(size.width):h=\(size.height)" }
        if let adjustment { options += ":" + adjustment }
        let scaled = size.map { "-\($0.width)x\($0.height)" } ?? ""
        let adjusted = adjustment.map { "-" + $0.replacingOccurrences(of: ":", with: "-") } ?? ""
        let name = "placebo-\(variant.rawValue)-\(index)\(scaled)\(adjusted)-\(URL(fileURLWithPath: source).deletingPathExtension().lastPathComponent)"
        let spec = Fixtures.Spec(name: name, ext: "png", arguments: [
            "-init_hw_device", "vulkan=vk:0", "-filter_hw_device", "vk", "-i", source,
            "-vf", "select=eq(n\\,\(index)),hwupload,libplacebo=\(options),hwdownload,format=rgba",
            "-fps_mode", "passthrough", "-frames:v", "1",
        ])
        return try Fixtures.path(spec)
    }
}
