import CFFmpeg
import Foundation

/// A decoded picture ready to show, with everything a renderer needs and nothing of FFmpeg:
/// plane pointers, pixel format, colour matrix and range, chroma siting, sample aspect ratio,
/// the colour description (primaries, transfer, HDR metadata) and how it was scanned.
/// Threading: immutable and shareable across threads; the pixel buffers stay valid for as long
/// as anyone holds the frame (FFmpeg reference-counts them).
public final class VideoFrame: @unchecked Sendable {
    // Safe: `frame` is never written after init; FFmpeg buffer refs are atomic.
    package let frame: Frame
    package let serial: Int

    public let pts: Double
    public let duration: Double
    /// Frame number from 0, when the stream has a constant frame rate.
    public let index: Int?
    public let width: Int
    public let height: Int
    public let format: PixelFormat
    public let colorMatrix: ColorMatrix
    public let colorRange: ColorRange
    public let chromaLocation: ChromaLocation
    /// Primaries, transfer and HDR metadata, as this frame's tags and side data say.
    public let colour: PictureColour
    /// `.progressive`, or `.tt`/`.bb` for an interlaced picture whose top/bottom field comes first.
    public let fieldOrder: FieldOrder
    public let sampleAspectRatio: Rational
    public let isKeyFrame: Bool
    /// Bytes of picture this frame holds on to, for memory budgets.
    package let byteCount: Int

    /// `streamHDR`: the container's HDR metadata, for a picture that carries none of its own.
    package init(frame: Frame, serial: Int, pts: Double, duration: Double, index: Int?, streamHDR: HDRMetadata? = nil) {
        self.frame = frame
        self.serial = serial
        self.pts = pts
        self.duration = duration
        self.index = index
        let f = frame.pointer.pointee
        width = Int(f.width)
        height = Int(f.height)
        format = PixelFormat(AVPixelFormat(f.format))
        colorMatrix = ColorMatrix(f.colorspace, height: Int(f.height))
        colorRange = ColorRange(f.color_range, format: AVPixelFormat(f.format))
        chromaLocation = ChromaLocation(f.chroma_location)
        colour = PictureColour(primaries: ColorPrimaries(f.color_primaries), transfer: TransferFunction(f.color_trc),
                               hdr: HDRMetadata(frame: frame.pointer) ?? streamHDR)
        fieldOrder = [.progressive, .tt, .bb][Int(reel_frame_field_order(frame.pointer))]
        sampleAspectRatio = f.sample_aspect_ratio.num > 0 && f.sample_aspect_ratio.den > 0
            ? Rational(Int(f.sample_aspect_ratio.num), Int(f.sample_aspect_ratio.den)) : Rational(1, 1)
        isKeyFrame = frame.isKey
        byteCount = max(1, Int(av_image_get_buffer_size(AVPixelFormat(f.format), f.width, f.height, 1)))
    }

    /// The same picture (shared buffers) under another seek serial: a picture decoded before a
    /// seek that it turns out to be the landing of.
    package func relabeled(serial: Int) -> VideoFrame {
        serial == self.serial ? self
            : VideoFrame(frame: frame, serial: serial, pts: pts, duration: duration, index: index, streamHDR: colour.hdr)
    }

    /// Width the picture should be displayed at, after the sample aspect ratio.
    public var displayWidth: Int {
        Int((Double(width) * sampleAspectRatio.value).rounded())
    }

    /// One plane of pixel data. The pointer is valid only inside `withPlanes`.
    public struct Plane {
        public let base: UnsafeRawPointer
        public let bytesPerRow: Int
        /// Width and height in samples of this plane (chroma planes are subsampled).
        public let width: Int
        public let height: Int
    }

    /// Calls `body` with the frame's planes; do not let the pointers escape.
    public func withPlanes<R>(_ body: ([Plane]) throws -> R) rethrows -> R {
        let f = frame.pointer.pointee
        let pixFmt = AVPixelFormat(f.format)
        guard let descriptor = av_pix_fmt_desc_get(pixFmt) else { return try body([]) }
        let planeCount = Int(av_pix_fmt_count_planes(pixFmt))
        let log2w = Int(descriptor.pointee.log2_chroma_w), log2h = Int(descriptor.pointee.log2_chroma_h)
        var planes: [Plane] = []
        withUnsafeBytes(of: f.data) { dataRaw in
            withUnsafeBytes(of: f.linesize) { lineRaw in
                let data = dataRaw.bindMemory(to: UnsafeMutablePointer<UInt8>?.self)
                let lines = lineRaw.bindMemory(to: Int32.self)
                for i in 0..<planeCount {
                    guard let base = data[i] else { continue }
                    let isChroma = (i == 1 || i == 2) && descriptor.pointee.nb_components >= 3
                    let w = isChroma ? -((-width) >> log2w) : width
                    let h = isChroma ? -((-height) >> log2h) : height
                    planes.append(Plane(base: UnsafeRawPointer(base), bytesPerRow: Int(lines[i]), width: w, height: h))
                }
            }
        }
        return try body(planes)
    }

    /// MD5 of the tightly packed planes in the decoded pixel format: the same bytes, and so the
    /// same hash, as `ffmpeg -c:v rawvideo -f framemd5` prints for this frame.
    public func md5() -> String { FrameExport.md5(of: frame) }

    /// The picture as PNG (8-bit), converted with the frame's own colour matrix and range,
    /// square pixels, turned `rotation` degrees clockwise (the stream's display rotation).
    public func pngData(rotation: Int = 0) throws(PlayerError) -> Data {
        try FrameExport.png(of: frame, clockwise: rotation, finished: colour.plan() == nil ? nil : self)
    }

    /// The same, with `subtitles(width, height)` drawn over it at the picture's final size
    /// (a player's `subtitleImage(at: pts, ...)`: what was on screen with this picture).
    public func pngData(rotation: Int = 0,
                        subtitles: (_ width: Int, _ height: Int) -> SubtitleImage?) throws(PlayerError) -> Data {
        try withoutActuallyEscaping(subtitles) { overlay throws(PlayerError) in
            try FrameExport.png(of: frame, clockwise: rotation, finished: colour.plan() == nil ? nil : self,
                                overlay: overlay)
        }
    }

    /// The picture as the person shaped it on screen (`transform`: crop, aspect, turns and
    /// mirror, after the stream's own `rotation`) and adjusted it (`equalizer`), with
    /// `subtitles` over it if given, as PNG.
    public func pngData(rotation: Int = 0, transform: PictureTransform, equalizer: Equalizer = .neutral,
                        subtitles: ((_ width: Int, _ height: Int) -> SubtitleImage?)? = nil) throws(PlayerError) -> Data {
        guard !transform.isIdentity || !equalizer.isNeutral else {
            if let subtitles { return try pngData(rotation: rotation, subtitles: subtitles) }
            return try pngData(rotation: rotation)
        }
        return try FrameExport.png(of: self, clockwise: rotation, transform: transform, equalizer: equalizer, overlay: subtitles)
    }

    /// The picture as packed 8-bit RGB rows (`width * 3` bytes each), scaled to the given size.
    public func rgbPixels(width: Int? = nil, height: Int? = nil) throws(PlayerError) -> Data {
        try FrameExport.rgb24(of: frame, width: width ?? self.width, height: height ?? self.height)
    }
}
