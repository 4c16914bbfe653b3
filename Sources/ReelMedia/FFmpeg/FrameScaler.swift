import CFFmpeg

/// Converts pictures to 32-bit BGRA rows at the size they are shown, for drawing without a GPU:
/// the colour conversion (the frame's own matrix, range and chroma siting) and the scaling
/// happen in one pass, so nothing is converted at video size and then scaled again. YUV goes
/// through zimg (`PlanarToRGB`; semi-planar nv12 and p010 are first split into planes, a plain
/// copy); other layouts (packed YUV, 4:1:0, palettes, RGB …) through libswscale's accurate
/// path, as the engine's own RGB export converts them. Either way libswscale packs the planar
/// RGB into BGRA rows, except for pictures with a `ColourPlan` (HDR, BT.2020) that zimg takes:
/// zimg writes 16 bits and `RGBFinisher` tone-maps them into the BGRA rows in the same pass.
/// Each stage is kept while the input and output stay the same (every picture of a stream at
/// one window size).
/// Threading: one thread at a time (the window's main thread); the frames may come from any.
public final class FrameScaler {
    private var planar: PlanarToRGB?
    /// The last format zimg could not take, so that its graph is not tried for every picture.
    private var refused: PlanarToRGB.Format?
    private var split: SwsStage?
    private var direct: SwsStage?
    private var packer: SwsStage?
    /// Tone mapping and gamut mapping for pictures with a `ColourPlan` (HDR, BT.2020), kept
    /// while the plan stays the same.
    private var finisher: RGBFinisher?
    /// The video equalizer's steps, kept while it and the picture's matrix stay the same.
    private var equalizerStage: EqualizerStage?

    /// The layout `scale` writes: cairo's ARGB32, native-endian 32-bit words with alpha high
    /// (opaque pictures need no premultiplying).
    public static let bytesPerPixel = 4

    public init() {}

    /// Converts `frame` (or its `region`: a crop, or what a zoomed picture shows) to
    /// `width`×`height` pixels into `destination`, rows `bytesPerRow` apart (at least
    /// `width * 4`), as opaque native-endian ARGB (B, G, R, A in memory here), adjusted by
    /// `equalizer`.
    public func scale(_ frame: VideoFrame, region: SourceRegion? = nil, equalizer: Equalizer = .neutral,
                      width: Int, height: Int,
                      into destination: UnsafeMutableRawPointer, bytesPerRow: Int) throws(PlayerError) {
        guard width > 0, height > 0, bytesPerRow >= width * Self.bytesPerPixel else { return }
        let region = region.flatMap { $0.isWhole(width: frame.width, height: frame.height) ? nil : $0 }
        var source = frame.frame
        let plan = frame.colour.plan()
        let original = AVPixelFormat(source.pointer.pointee.format)
        if let planarFormat = Self.planarEquivalent(of: original) {
            source = try splitPlanes(source, into: planarFormat)
        }
        let f = source.pointer.pointee
        let format = PlanarToRGB.Format(pixelFormat: f.format, width: Int(f.width), height: Int(f.height),
                                        outWidth: width, outHeight: height,
                                        matrix: frame.colorMatrix, range: frame.colorRange, chroma: frame.chromaLocation,
                                        outputDepth: plan == nil && equalizer.isNeutral ? 8 : 16, region: region)
        if planar?.format != format, refused != format {
            planar = PlanarToRGB(format)
            if planar == nil { refused = format }
        }
        let stage = equalizer.isNeutral ? nil : equalizerStage(equalizer, frame.colorMatrix)
        if let plan, let planar, planar.convert(source) {
            let gamma = equalizer.gammaFactor
            if finisher?.plan != plan || finisher?.gammaFactor != gamma { finisher = RGBFinisher(plan: plan, gammaFactor: gamma) }
            let planes = planar.planes.map { $0.assumingMemoryBound(to: UInt16.self) }
            stage?.adjust(red: planes[0], green: planes[1], blue: planes[2], stride: planar.stride / 2, width: width, height: height)
            finisher?.finish(red: planes[0], green: planes[1], blue: planes[2], sourceStride: planar.stride / 2,
                             into: destination.assumingMemoryBound(to: UInt8.self), targetStride: bytesPerRow,
                             width: width, height: height)
        } else if let stage, let planar, planar.convert(source) {
            let planes = planar.planes.map { $0.assumingMemoryBound(to: UInt16.self) }
            stage.finish(red: planes[0], green: planes[1], blue: planes[2], stride: planar.stride / 2,
                         into: destination.assumingMemoryBound(to: UInt8.self), targetStride: bytesPerRow, width: width, height: height)
        } else if let planar, plan == nil, planar.convert(source) {
            // GBRP's planes are G, B, R; zimg's are R, G, B.
            try pack([planar.planes[1], planar.planes[2], planar.planes[0]], stride: planar.stride,
                     width: width, height: height, into: destination, bytesPerRow: bytesPerRow)
        } else {
            // libswscale takes whole pixels only: the region's, cut from a new reference.
            if let region {
                source = try source.cropped(to: region.pixels(width: Int(f.width), height: Int(f.height)))
            }
            let rgb = try convertDirectly(source, format, deep: stage != nil)
            let p = rgb.pointer.pointee
            guard let g = p.data.0, let b = p.data.1, let r = p.data.2 else { throw .internalError("no picture to draw") }
            if let stage {
                func words(_ plane: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt16> {
                    UnsafeMutableRawPointer(plane).assumingMemoryBound(to: UInt16.self)
                }
                stage.finish(red: words(r), green: words(g), blue: words(b), stride: Int(p.linesize.0) / 2,
                             into: destination.assumingMemoryBound(to: UInt8.self), targetStride: bytesPerRow, width: width, height: height)
                return
            }
            try pack([UnsafeMutableRawPointer(g), UnsafeMutableRawPointer(b), UnsafeMutableRawPointer(r)],
                     stride: Int(p.linesize.0), width: width, height: height, into: destination, bytesPerRow: bytesPerRow)
        }
    }

    /// Planar RGB rows into BGRA rows: libswscale's unscaled planar-to-packed copy.
    private func pack(_ gbr: [UnsafeMutableRawPointer], stride: Int, width: Int, height: Int,
                      into destination: UnsafeMutableRawPointer, bytesPerRow: Int) throws(PlayerError) {
        let key = SwsStage.Key(from: AV_PIX_FMT_GBRP, width: width, height: height, to: Self.outputFormat,
                               outWidth: width, outHeight: height)
        if packer?.key != key { packer = try SwsStage(key, flags: SWS_POINT) }
        let source = gbr.map { UnsafePointer<UInt8>?($0.assumingMemoryBound(to: UInt8.self)) } + [nil]
        let strides = [Int32](repeating: Int32(stride), count: 3) + [0]
        try packer?.run(source, strides, height: height,
                        into: [destination.assumingMemoryBound(to: UInt8.self), nil, nil, nil], [Int32(bytesPerRow), 0, 0, 0])
    }

    /// A semi-planar picture (chroma interleaved) as the planar layout zimg takes.
    private func splitPlanes(_ frame: Frame, into planarFormat: AVPixelFormat) throws(PlayerError) -> Frame {
        let f = frame.pointer.pointee
        let key = SwsStage.Key(from: AVPixelFormat(f.format), width: Int(f.width), height: Int(f.height),
                               to: planarFormat, outWidth: Int(f.width), outHeight: Int(f.height))
        if split?.key != key { split = try SwsStage(key, flags: SWS_POINT) }
        return try split!.run(frame)
    }

    /// The equalizer's stage for `equalizer` on pictures of `matrix`, made when either changes.
    private func equalizerStage(_ equalizer: Equalizer, _ matrix: ColorMatrix) -> EqualizerStage {
        if let stage = equalizerStage, stage.equalizer == equalizer, stage.matrix == matrix { return stage }
        let stage = EqualizerStage(equalizer, matrix: matrix)
        equalizerStage = stage
        return stage
    }

    /// libswscale's accurate conversion to planar RGB (full-resolution chroma, exact rounding,
    /// bicubic as the engine's RGB export) for what zimg does not take; 16 bits a sample when
    /// `deep` (for the equalizer), else 8.
    private func convertDirectly(_ frame: Frame, _ format: PlanarToRGB.Format, deep: Bool = false) throws(PlayerError) -> Frame {
        let key = SwsStage.Key(from: AVPixelFormat(format.pixelFormat), width: frame.width, height: frame.height,
                               to: deep ? Self.deepPlanarRGB : AV_PIX_FMT_GBRP, outWidth: format.outWidth, outHeight: format.outHeight,
                               matrix: format.matrix, range: format.range, chroma: format.chroma)
        if direct?.key != key {
            direct = try SwsStage(key, flags: SWS_BICUBIC | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT)
        }
        return try direct!.run(frame)
    }

    /// The planar layout with the same samples as a semi-planar one; nil for any other.
    private static func planarEquivalent(of format: AVPixelFormat) -> AVPixelFormat? {
        switch format {
        case AV_PIX_FMT_NV12, AV_PIX_FMT_NV21: AV_PIX_FMT_YUV420P
        case AV_PIX_FMT_NV16: AV_PIX_FMT_YUV422P
        case AV_PIX_FMT_NV24, AV_PIX_FMT_NV42: AV_PIX_FMT_YUV444P
        case AV_PIX_FMT_P010LE: AV_PIX_FMT_YUV420P10LE
        case AV_PIX_FMT_P016LE: AV_PIX_FMT_YUV420P16LE
        default: nil
        }
    }

    /// Planar 16-bit RGB in native byte order.
    private static var deepPlanarRGB: AVPixelFormat {
        #if _endian(little)
        AV_PIX_FMT_GBRP16LE
        #else
        AV_PIX_FMT_GBRP16BE
        #endif
    }

    /// cairo's ARGB32 in memory order.
    private static var outputFormat: AVPixelFormat {
        #if _endian(little)
        AV_PIX_FMT_BGRA
        #else
        AV_PIX_FMT_ARGB
        #endif
    }
}
