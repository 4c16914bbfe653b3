import ReelEngine

/// Where subsampled chroma samples sit among the luma samples they cover, and the texture
/// coordinate transform that makes GL's bilinear filter interpolate chroma from there. Getting
/// this wrong shifts colour edges by a quarter of a chroma sample (H.264 4:2:0 is left-sited;
/// a renderer that treats it as centred, as libswscale does by default, smears every edge).
/// Threading: a value type.
struct ChromaSiting: Equatable {
    /// The engine's axis positions (`ChromaLocation.AxisPosition`): one table for the
    /// renderer and the libswscale export.
    typealias Position = ChromaLocation.AxisPosition

    let horizontal: Position
    let vertical: Position

    init(horizontal: Position, vertical: Position) {
        self.horizontal = horizontal
        self.vertical = vertical
    }

    /// The stream's siting, or the engine's rule when it says nothing
    /// (`ChromaLocation.resolved(for:)`, which the libswscale export follows too).
    init(_ location: ChromaLocation, range: ColorRange) {
        let axes = location.resolved(for: range).axes
        self.init(horizontal: axes.horizontal, vertical: axes.vertical)
    }

    /// A chroma sample's distance from its group's first luma sample, in luma samples, when
    /// `factor` luma samples share it. Also libswscale's `*_chr_pos` divided by 256.
    static func lumaOffset(_ position: Position, factor: Int) -> Double {
        position.lumaOffset(factor: factor)
    }

    /// Maps a luma texture coordinate to the chroma texture's, one axis: `luma * scale + offset`.
    /// A luma sample at `x` (texel centre `x + ½`) wants chroma index `(x − o) / factor`, whose
    /// texel centre in the chroma texture is that `+ ½`; both divided by their texture sizes.
    static func transform(_ position: Position, factor: Int, lumaSize: Int, chromaSize: Int) -> (scale: Float, offset: Float) {
        guard factor > 1, lumaSize > 0, chromaSize > 0 else { return (1, 0) }
        let o = lumaOffset(position, factor: factor), f = Double(factor), c = Double(chromaSize)
        return (Float(Double(lumaSize) / (f * c)), Float((0.5 - (0.5 + o) / f) / c))
    }
}
