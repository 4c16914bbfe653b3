import CEpoxy
import Foundation
import ReelEngine

/// Draws decoded pictures with GL, letterboxed into the viewport. YUV pictures (8- and 10-bit
/// 4:2:0, 4:2:2, 4:4:4, nv12, p010) go up as they were decoded, one texture per plane, and
/// become RGB in the fragment shader with the frame's own matrix, range and chroma siting;
/// packed RGB goes up as it is; anything else is converted to RGB by libswscale first.
/// Pictures with a `ColourPlan` (HDR, BT.2020) are tone- and gamut-mapped in a variant of the
/// YUV shader (`ColourShader`), or, when converted on the CPU, by the engine's `FrameScaler`.
/// Textures are uploaded once per new picture and reused while their size stays the same.
/// Threading: main thread, with the GtkGLArea's context current (realize … unrealize).
@MainActor
final class MovieRenderer {
    private var planarProgram: YUVProgram?
    private var semiPlanarProgram: YUVProgram?
    private var rgbProgram: RGBProgram?
    /// The colour and equalizer variants, compiled when a picture first needs one.
    private let variants = ProgramVariants()
    /// Converts pictures with a plan that GL cannot take as planes (the CPU path's steps).
    private lazy var scaler = FrameScaler()
    /// FrameScaler's BGRA for the texture, reused while the size stays the same.
    private var finished: [UInt8] = []
    private var vertexArray: GLuint = 0
    private var vertexBuffer: GLuint = 0
    private let textures = PlaneTextures(count: 3)
    private let sixteenBitTextures: Bool

    /// How the textures are to be drawn, decided when they were filled. Threading: a value type.
    private enum Prepared {
        case yuv(semiPlanar: Bool, YUVConversion, chromaScale: (Float, Float), chromaOffset: (Float, Float),
                 plan: ColourPlan?)
        /// `equalized`: the CPU already applied this equalizer (`FrameScaler`'s pictures).
        case rgb(swapRedBlue: Bool, equalized: Equalizer?)
    }

    /// The picture the textures hold. Weak, and compared by identity: a new frame allocated
    /// where a freed one was is still a new frame (an ObjectIdentifier could not tell).
    private weak var uploaded: VideoFrame?
    private var prepared: Prepared?

    /// The viewport the last picture was drawn into, in GL's coordinates (rows from the bottom).
    private(set) var lastRect = VideoRect(x: 0, y: 0, width: 0, height: 0)
    /// The last GL problem, for the window to report instead of drawing garbage.
    private(set) var failure: String?

    init() {
        sixteenBitTextures = reel_gl_is_es() == 0 || reel_gl_has_extension("GL_EXT_texture_norm16") != 0
        do {
            planarProgram = try YUVProgram(semiPlanar: false)
            semiPlanarProgram = try YUVProgram(semiPlanar: true)
            rgbProgram = try RGBProgram()
        } catch {
            failure = "\(error)"
        }
        // A full-viewport quad as a triangle strip; the viewport does the letterboxing.
        let quad: [GLfloat] = [-1, -1, 1, -1, -1, 1, 1, 1]
        reel_gl_gen_vertex_arrays(1, &vertexArray)
        reel_gl_bind_vertex_array(vertexArray)
        reel_gl_gen_buffers(1, &vertexBuffer)
        reel_gl_bind_buffer(GLenum(GL_ARRAY_BUFFER), vertexBuffer)
        quad.withUnsafeBytes { reel_gl_buffer_data(GLenum(GL_ARRAY_BUFFER), $0.count, $0.baseAddress, GLenum(GL_STATIC_DRAW)) }
        reel_gl_vertex_attrib_pointer(0, 2, GLenum(GL_FLOAT), 0, 0)
        reel_gl_enable_vertex_attrib_array(0)
        reel_gl_bind_vertex_array(0)
    }

    /// Frees GL objects; call with the context current (unrealize).
    func release() {
        for program in [planarProgram?.program, semiPlanarProgram?.program, rgbProgram?.program] { program?.delete() }
        variants.delete()
        finished = []
        planarProgram = nil
        semiPlanarProgram = nil
        rgbProgram = nil
        textures.delete()
        uploaded = nil
        prepared = nil
        reel_gl_delete_buffers(1, &vertexBuffer)
        reel_gl_delete_vertex_arrays(1, &vertexArray)
    }

    /// Clears to black and draws `frame` (if any) letterboxed into a `width`×`height` viewport
    /// of device pixels, turned `rotation` degrees clockwise (multiples of 90, its stream's)
    /// shaped as the person asked (`shape`) and adjusted by the video equalizer.
    func draw(_ frame: VideoFrame?, width: Int, height: Int, rotation: Int = 0, shape: PictureShape = .plain,
              equalizer: Equalizer = .neutral) {
        reel_gl_viewport(0, 0, GLsizei(width), GLsizei(height))
        reel_gl_clear_color(0, 0, 0, 1)
        reel_gl_clear(GLbitfield(GL_COLOR_BUFFER_BIT))
        guard let frame, rgbProgram != nil else { return }
        let placement = PicturePlacement(frame, streamDegrees: rotation, shape: shape, viewWidth: width, viewHeight: height)
        let visible = placement.visible
        // GL counts rows from the bottom.
        let rect = VideoRect(x: visible.x, y: height - visible.y - visible.height, width: visible.width, height: visible.height)
        lastRect = rect
        guard rect.width > 0, rect.height > 0 else { return }
        let map = placement.textureTransform(frameWidth: frame.width, frameHeight: frame.height)
        if case .rgb(_, let done?) = prepared, done != equalizer { prepared = nil }
        if uploaded !== frame || prepared == nil {
            uploaded = nil
            prepared = upload(frame, equalizer)
            guard prepared != nil else { return }
            uploaded = frame
        }
        guard let prepared else { return }
        reel_gl_viewport(GLint(rect.x), GLint(rect.y), GLsizei(rect.width), GLsizei(rect.height))
        switch prepared {
        case .yuv(let semiPlanar, let conversion, let scale, let offset, let plan):
            // A colour program that does not compile draws nothing (and says why), rather
            // than a washed-out picture.
            let gamma = equalizer.hasGamma
            let chosen = if plan != nil || gamma { compiled { try variants.yuv(semiPlanar: semiPlanar, plan, userGamma: gamma) } }
                else { semiPlanar ? semiPlanarProgram : planarProgram }
            guard let program = chosen else { return }
            // The equalizer's other steps are in the matrix.
            let adjusted = equalizer.isNeutral ? conversion
                : YUVConversion(conversion, equalizer: equalizer, matrix: frame.colorMatrix)
            program.use(adjusted, chromaScale: scale, chromaOffset: offset, textureMap: map,
                        gamma: Float(1 / equalizer.gammaFactor))
            if let plan { variants.useColour(plan, program) }
            textures.minify(semiPlanar ? 2 : 3, Self.needsMipmaps(placement))
            for plane in 0..<(semiPlanar ? 2 : 3) { textures.bind(plane, unit: plane) }
        case .rgb(let swap, let done):
            let equalize = done == nil && !equalizer.isNeutral
            guard let program = equalize ? compiled({ try variants.rgbWithEqualizer() }) : rgbProgram else { return }
            program.use(swapRedBlue: swap, textureMap: map)
            if equalize { program.use(equalizer, matrix: frame.colorMatrix) }
            textures.minify(1, Self.needsMipmaps(placement))
            textures.bind(0, unit: 0)
        }
        reel_gl_bind_vertex_array(vertexArray)
        reel_gl_draw_arrays(GLenum(GL_TRIANGLE_STRIP), 0, 4)
        reel_gl_bind_vertex_array(0)
        reel_gl_active_texture(GLenum(GL_TEXTURE0))
    }

    /// Beyond half its size a bilinear sample no longer takes in every texel it covers: fine
    /// detail aliases and shimmers as the picture moves, so mipmaps take over (down to half
    /// size the plain path stays, exactly as before).
    nonisolated static func needsMipmaps(_ placement: PicturePlacement) -> Bool { placement.minification > 2 }

    // MARK: Uploading

    /// Fills the textures from `frame` the cheapest way its layout allows.
    private func upload(_ frame: VideoFrame, _ equalizer: Equalizer) -> Prepared? {
        switch PictureLayout(frame.format, sixteenBitTextures: sixteenBitTextures) {
        case .yuv(let layout):
            if let prepared = uploadYUV(frame, layout) { return prepared }
        case .rgb(let format, let swap):
            if uploadPacked(frame, format) { return .rgb(swapRedBlue: swap, equalized: nil) }
        case .converted:
            break
        }
        return uploadConverted(frame, equalizer)
    }

    /// The planes as decoded; nil when their strides are ones GL cannot take (then libswscale).
    private func uploadYUV(_ frame: VideoFrame, _ layout: PictureLayout.YUV) -> Prepared? {
        frame.withPlanes { planes -> Prepared? in
            let count = layout.semiPlanar ? 2 : 3
            guard planes.count >= count else { return nil }
            let formats = [layout.luma, layout.chroma, layout.chroma]
            for i in 0..<count where !PlaneTextures.canUpload(bytesPerRow: planes[i].bytesPerRow, width: planes[i].width,
                                                               format: formats[i]) {
                return nil
            }
            for i in 0..<count {
                let plane = planes[i]
                textures.upload(i, base: plane.base, bytesPerRow: plane.bytesPerRow, width: plane.width, height: plane.height,
                                format: formats[i])
            }
            let siting = ChromaSiting(frame.chromaLocation, range: frame.colorRange)
            let h = ChromaSiting.transform(siting.horizontal, factor: layout.horizontalSubsampling,
                                           lumaSize: planes[0].width, chromaSize: planes[1].width)
            let v = ChromaSiting.transform(siting.vertical, factor: layout.verticalSubsampling,
                                           lumaSize: planes[0].height, chromaSize: planes[1].height)
            return .yuv(semiPlanar: layout.semiPlanar, conversion(frame, layout),
                        chromaScale: (h.scale, v.scale), chromaOffset: (h.offset, v.offset), plan: plan(frame))
        }
    }

    private func uploadPacked(_ frame: VideoFrame, _ format: TextureFormat) -> Bool {
        frame.withPlanes { planes in
            guard let plane = planes.first,
                  PlaneTextures.canUpload(bytesPerRow: plane.bytesPerRow, width: plane.width, format: format) else { return false }
            textures.upload(0, base: plane.base, bytesPerRow: plane.bytesPerRow, width: plane.width, height: plane.height,
                            format: format)
            return true
        }
    }

    /// Any other format: libswscale converts to RGB on the CPU with the frame's matrix and range;
    /// pictures with a plan go through the engine's FrameScaler instead (zimg to 16 bits, then
    /// RGBFinisher: the CPU path's own steps), at their own size.
    private func uploadConverted(_ frame: VideoFrame, _ equalizer: Equalizer) -> Prepared? {
        if plan(frame) != nil { return uploadFinished(frame, equalizer) }
        let rgb: Data
        do { rgb = try frame.rgbPixels() } catch {
            failure = error.message
            return nil
        }
        rgb.withUnsafeBytes { bytes in
            guard let base = bytes.baseAddress else { return }
            textures.upload(0, base: base, bytesPerRow: frame.width * 3, width: frame.width, height: frame.height, format: .rgb8)
        }
        return .rgb(swapRedBlue: false, equalized: nil)
    }

    /// The CPU path's steps, the equalizer's included (on the source signal for HDR, as the
    /// shader does), so the texture is drawn as it is.
    private func uploadFinished(_ frame: VideoFrame, _ equalizer: Equalizer) -> Prepared? {
        let bytesPerRow = frame.width * FrameScaler.bytesPerPixel
        if finished.count != bytesPerRow * frame.height { finished = [UInt8](repeating: 0, count: bytesPerRow * frame.height) }
        var thrown: PlayerError?
        finished.withUnsafeMutableBytes { bytes in
            guard let base = bytes.baseAddress else { return }
            do throws(PlayerError) {
                try scaler.scale(frame, equalizer: equalizer, width: frame.width, height: frame.height, into: base,
                                 bytesPerRow: bytesPerRow)
            } catch {
                thrown = error
            }
        }
        if let thrown {
            failure = thrown.message
            return nil
        }
        // FrameScaler writes B, G, R, A bytes (cairo's native-endian ARGB here).
        finished.withUnsafeBytes { bytes in
            guard let base = bytes.baseAddress else { return }
            textures.upload(0, base: base, bytesPerRow: bytesPerRow, width: frame.width, height: frame.height, format: .rgba8)
        }
        return .rgb(swapRedBlue: true, equalized: equalizer)
    }

    // MARK: Colour

    private var lastPlan: (colour: PictureColour, plan: ColourPlan?)?

    /// The frame's plan; the same as last time for every frame of a stream.
    private func plan(_ frame: VideoFrame) -> ColourPlan? {
        if let lastPlan, lastPlan.colour == frame.colour { return lastPlan.plan }
        let plan = frame.colour.plan()
        lastPlan = (frame.colour, plan)
        return plan
    }

    /// A variant's program; nil (and `failure` set) when it does not compile.
    private func compiled<P>(_ make: () throws -> P) -> P? {
        do { return try make() } catch {
            failure = "\(error)"
            return nil
        }
    }

    private var lastConversion: (key: ConversionKey, value: YUVConversion)?

    /// What a conversion depends on. Threading: a value type.
    private struct ConversionKey: Equatable {
        let matrix: ColorMatrix, range: ColorRange, bitDepth: Int, sampleScale: Double
    }

    /// The frame's conversion; the same as last time for every frame of a stream.
    private func conversion(_ frame: VideoFrame, _ layout: PictureLayout.YUV) -> YUVConversion {
        let key = ConversionKey(matrix: frame.colorMatrix, range: frame.colorRange, bitDepth: layout.bitDepth,
                                sampleScale: layout.sampleScale)
        if let last = lastConversion, last.key == key { return last.value }
        let value = YUVConversion(matrix: key.matrix, range: key.range, bitDepth: key.bitDepth, sampleScale: key.sampleScale)
        lastConversion = (key, value)
        return value
    }

    // MARK: Reading back

    /// The picture area as drawn, read back from the framebuffer: RGBA rows, top row first.
    func readBack(viewHeight: Int) -> DrawnImage? {
        let r = lastRect
        guard r.width > 0, r.height > 0 else { return nil }
        var pixels = [UInt8](repeating: 0, count: r.width * r.height * 4)
        reel_gl_pixel_storei(GLenum(GL_PACK_ALIGNMENT), 1)
        reel_gl_read_pixels(GLint(r.x), GLint(r.y), GLsizei(r.width), GLsizei(r.height),
                            GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), &pixels)
        // GL's rows run bottom to top.
        var flipped = [UInt8](repeating: 0, count: pixels.count)
        let row = r.width * 4
        for y in 0..<r.height {
            flipped.replaceSubrange((y * row)..<((y + 1) * row), with: pixels[((r.height - 1 - y) * row)..<((r.height - y) * row)])
        }
        return DrawnImage(pixels: flipped, width: r.width, height: r.height)
    }
}
