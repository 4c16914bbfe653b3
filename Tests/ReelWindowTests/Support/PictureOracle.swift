import Foundation
import ReelTestSupport

/// FFmpeg as the outside oracle for what the renderer draws: its own YUV→RGB conversion of a
/// given frame, and its PSNR filter to compare two pictures.
/// Threading: stateless; blocking calls from test threads.
enum PictureOracle {
    /// How FFmpeg is to convert: the frame's matrix and range as FFmpeg's scale filter names them,
    /// where chroma sits, and the kernel that interpolates it. Threading: a value type.
    struct Conversion: Sendable, CustomStringConvertible {
        /// `in_color_matrix`: bt601, bt709, bt2020.
        var matrix: String
        /// `in_range`: tv (limited) or pc (full).
        var range: String
        /// Chroma siting as libswscale's `in_h_chr_pos`/`in_v_chr_pos` (luma samples × 256 from
        /// the first luma sample); nil leaves libswscale's default, centred both ways.
        var chromaPosition: ChromaPosition?
        /// The chroma upsampling kernel (libswscale flag); also scales anamorphic pictures.
        var kernel = "bilinear"
        /// Square-pixel size to scale to ("640:360"), for pictures with a sample aspect ratio.
        var displaySize: String?

        /// Threading: a value type.
        struct ChromaPosition: Sendable {
            var horizontal: Int, vertical: Int
            /// MPEG-2/H.264/HEVC 4:2:0 ("left"): co-sited with the left luma sample, between rows.
            static let left = Self(horizontal: 0, vertical: 128)
            static let center = Self(horizontal: 128, vertical: 128)
        }

        var description: String {
            "\(matrix) \(range)" + (chromaPosition.map { " chroma at \($0.horizontal),\($0.vertical)/256" } ?? "") + " \(kernel)"
                + (displaySize.map { " scaled to \($0)" } ?? "")
        }
    }

    /// Writes frame `index` (counted from the first, in presentation order) of `file` as an RGB
    /// PNG converted by libswscale as `conversion` says; `filters` run on the decoded frames
    /// first (`bwdif=mode=send_field`: then `index` counts fields), `after` on the RGB picture.
    /// `after` runs on the converted RGB picture (turns, mirrors and crops of what was shown).
    static func convert(_ file: String, frame index: Int, _ conversion: Conversion, filters: String? = nil,
                        after: String? = nil, to png: String) throws {
        // Why these flags:
        // - full_chroma_int: interpolate chroma for every pixel (libswscale's RGB output otherwise
        //   gives each pixel pair one chroma value), as the shader's texture sampling does.
        // - bilinear: the shader's chroma upsampling is GL's bilinear filter. The kernel is the
        //   renderer's choice, not colour conversion; with libswscale's default bicubic, sharp
        //   colour edges alone cost ~8 dB.
        // - in_h_chr_pos/in_v_chr_pos: FFmpeg 5.1's scale filter ignores the frame's
        //   chroma_location and assumes centred chroma (it only pins 4:2:0's vertical position);
        //   the renderer honours the frame's siting (H.264 says "left"), so the oracle is told.
        // - format=gbrp first: FFmpeg 5.1 converting straight to packed RGB at the same size takes
        //   a vertical shortcut for 2-tap chroma (yuv2packed1: first row only, or a 50/50 mix),
        //   which is not bilinear and moves chroma half a row down. Planar RGB takes the general
        //   path; gbrp→rgb24 is then a lossless reshuffle.
        var scale = (conversion.displaySize.map { "\($0):" } ?? "") + "in_color_matrix=\(conversion.matrix):in_range=\(conversion.range):out_range=pc"
            + ":flags=\(conversion.kernel)+accurate_rnd+full_chroma_int"
        if let position = conversion.chromaPosition {
            scale += ":in_h_chr_pos=\(position.horizontal):in_v_chr_pos=\(position.vertical)"
        }
        try Command.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin", "-y", "-i", file,
                         "-vf", (filters.map { $0 + "," } ?? "") + "select=eq(n\\,\(index)),scale=\(scale),format=gbrp,"
                            + (after.map { $0 + "," } ?? "") + "scale,format=rgb24",
                         "-fps_mode", "passthrough", "-frames:v", "1", png])
    }

    /// PSNR of `a` against `b` over R, G and B (alpha left out), as FFmpeg's psnr filter
    /// reports it ("average:"); infinity when they are identical.
    static func psnr(_ a: String, _ b: String) throws -> Double {
        let result = try Command.run(["ffmpeg", "-hide_banner", "-nostdin", "-i", a, "-i", b, "-lavfi",
                                      "[0:v]format=rgb24[a];[1:v]format=rgb24[b];[a][b]psnr", "-f", "null", "-"])
        guard let range = result.errors.range(of: "average:") else {
            throw Command.Failure(command: ["psnr", a, b], result: result)
        }
        let number = result.errors[range.upperBound...].prefix { !$0.isWhitespace }
        if number == "inf" { return .infinity }
        guard let value = Double(number) else { throw Command.Failure(command: ["psnr", a, b], result: result) }
        return value
    }

    /// Width and height from a PNG's header; nil unless the file is a whole PNG (the app may
    /// still be writing it).
    static func pngSize(_ data: Data) -> (width: Int, height: Int)? {
        let bytes = [UInt8](data)
        guard bytes.count > 32, bytes[12..<16] == [0x49, 0x48, 0x44, 0x52][...],  // IHDR
              bytes[(bytes.count - 8)..<(bytes.count - 4)] == [0x49, 0x45, 0x4e, 0x44][...]  // IEND
        else { return nil }
        func be32(_ at: Int) -> Int { bytes[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
        return (be32(16), be32(20))
    }
}

extension ReelApp {
    /// Saves the picture as the renderer drew it, once two saves in a row agree. The window
    /// must have opened at the video's natural size: a picture not drawn at exactly
    /// `width`×`height` (1:1) fails.
    /// Returns the PNG's path.
    func savePicture(width: Int, height: Int, name: String, timeout: Double = 40) throws -> String {
        try saveSettledPicture("a settled \(width)×\(height) picture", name: name, timeout: timeout) { size, _ in
            if size.width != width || size.height != height {
                // The window opens at the video's natural size, so the picture is drawn 1:1.
                throw Command.Failure(command: ["save-picture"], result: .init(status: -1, stdout: Data(),
                    stderr: Data("the picture is drawn at \(size.width)×\(size.height), not 1:1 at \(width)×\(height)".utf8)))
            }
            return true
        }
    }

    /// Saves the picture again and again until `accept` takes one (false: not yet, try again;
    /// a throw fails at once) and the next save is the same. Returns the PNG's path.
    func saveSettledPicture(_ what: String, name: String, timeout: Double,
                            accept: (_ size: (width: Int, height: Int), _ png: Data) throws -> Bool) throws -> String {
        var attempt = 0
        var previous: Data?
        var settled = ""
        try Desktop.wait(what, log: log, timeout: timeout) {
            attempt += 1
            let path = desktop.home.appendingPathComponent("\(name)-\(attempt).png").path
            try activate("save-picture", string: path)
            // The picture is saved at the next render; nothing is saved while nothing is drawn.
            var data = Data()
            var size: (width: Int, height: Int)?
            try? Desktop.wait("\(path)", timeout: 3) {
                data = FileManager.default.contents(atPath: path) ?? Data()
                size = PictureOracle.pngSize(data)
                return size != nil
            }
            guard let size else { return false }
            guard try accept(size, data) else {
                previous = nil
                return false
            }
            defer { previous = data }
            guard previous == data else { return false }
            settled = path
            return true
        }
        return settled
    }
}
