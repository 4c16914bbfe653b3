import ReelEngine

/// The YUV→RGB conversion of one kind of picture, folded into what the fragment shader needs:
/// `rgb = matrix · sample + offset`, where `sample` is (Y, Cb, Cr) as GL's texture units
/// return them (0…1 of the texture's integer range). Range, bit depth and how the samples sit
/// in their containers are all in the matrix and the offset, so the shader does one
/// multiply-add whatever the format.
/// Threading: a value type.
struct YUVConversion: Equatable {
    /// 3×3, column-major (GL's order): column 0 multiplies Y, 1 Cb, 2 Cr.
    let matrix: [Float]
    let offset: [Float]

    /// - Parameters:
    ///   - bitDepth: significant bits per sample (8, 10).
    ///   - sampleScale: what a texture value of 1.0 is in code values. 255 for 8-bit in an
    ///     8-bit texture; 65535 for 10-bit in the low bits of a 16-bit texture (yuv420p10le);
    ///     65535 / 64 for 10-bit in the high bits (p010), whose low 6 bits are zero.
    init(matrix: ColorMatrix, range: ColorRange, bitDepth: Int, sampleScale: Double) {
        // Code values of black, of the luma span, of zero chroma and of the chroma span. Limited
        // range scales the 8-bit 16/219/128/224 by the extra bits (BT.2100), as libswscale does.
        let step = Double(1 << (bitDepth - 8))
        let levels: (yBlack: Double, ySpan: Double, cZero: Double, cSpan: Double) = switch range {
        case .limited: (16 * step, 219 * step, 128 * step, 224 * step)
        case .full: (0, Double((1 << bitDepth) - 1), Double(1 << (bitDepth - 1)), Double((1 << bitDepth) - 1))
        }
        // R′G′B′ from Y′ in 0…1 and Cb, Cr in −½…½: the matrix's columns.
        let columns = matrix.toRGB.transposed.rows
        let (fromY, fromCb, fromCr) = (columns.0, columns.1, columns.2)
        let yGain = sampleScale / levels.ySpan, cGain = sampleScale / levels.cSpan
        let yBias = -levels.yBlack / levels.ySpan, cBias = -levels.cZero / levels.cSpan
        self.matrix = [fromY * yGain, fromCb * cGain, fromCr * cGain].flatMap { [Float($0.x), Float($0.y), Float($0.z)] }
        let offset = fromY * yBias + fromCb * cBias + fromCr * cBias
        self.offset = [Float(offset.x), Float(offset.y), Float(offset.z)]
    }

    /// `plain` (a neutral conversion of pictures of `matrix`) with the equalizer folded in:
    /// rgb = M·E·M⁻¹·(plain's rgb) + brightness, the same as E between the decoding's gains
    /// and M, without working out the picture's range and depth again.
    init(_ plain: YUVConversion, equalizer: Equalizer, matrix: ColorMatrix) {
        let adjust = equalizer.rgbMatrix(matrix)
        let m = plain.matrix.map(Double.init)
        let decode = Matrix3(columns: SIMD3(m[0], m[1], m[2]), SIMD3(m[3], m[4], m[5]), SIMD3(m[6], m[7], m[8]))
        self.matrix = (adjust * decode).columnMajor
        let o = adjust * SIMD3(plain.offset.map(Double.init)) + SIMD3(repeating: equalizer.offset)
        self.offset = [Float(o.x), Float(o.y), Float(o.z)]
    }

    /// What the shader computes, for tests and for reasoning: RGB (0…1, unclamped) of one sample.
    func rgb(y: Double, cb: Double, cr: Double) -> [Double] {
        (0..<3).map { row in
            Double(matrix[row]) * y + Double(matrix[3 + row]) * cb + Double(matrix[6 + row]) * cr + Double(offset[row])
        }
    }
}
