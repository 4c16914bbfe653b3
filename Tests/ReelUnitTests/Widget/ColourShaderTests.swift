import ReelEngine
import Testing
@testable import ReelGtk

/// The GL path's colour variants and uniforms, from a plan, against values worked out by hand
/// from BT.2100, BT.1886 and BT.2087 (the shader itself runs in the window tests).
/// Threading: stateless, runs anywhere.
@Suite("Colour shader")
struct ColourShaderTests {
    private func close(_ a: Float, _ b: Double, _ tolerance: Double = 1e-5) -> Bool {
        abs(Double(a) - b) <= tolerance * max(1, abs(b))
    }

    @Test("PQ without metadata: 10,000 cd/m² over 203, hybrid, nothing to linearise with")
    func pqBare() throws {
        let plan = try #require(ColourPlan(transfer: .pq, primaries: .bt2020, hdr: nil))
        #expect(ColourShader.Variant(plan).defines
                == "#define COLOUR\n#define COLOUR_PQ\n#define TONE_MAP\n#define TONE_HYBRID\n")
        let u = ColourShader.Uniforms(plan)
        #expect(u.linearisation == .zero)
        #expect(close(u.sourceRange.x, 0.005 / 203) && close(u.sourceRange.y, 10000.0 / 203))
        #expect(close(u.curveDomain.x, 0.0049629167) && close(u.curveDomain.y, 7.0186240634))
        // The target: 1000:1 below 203 cd/m², BT.1886's lift 0.001^(1/2.4).
        #expect(close(u.targetMin, 0.001) && close(u.targetLift, 0.0562341325))
        #expect(close(u.hybridEnds.x, 6.309573e-8) && close(u.hybridEnds.y, 1))
    }

    @Test("HLG at 1000 cd/m²: β, the OOTF's scale and γ − 1 = 0.2, luma mapping")
    func hlg() throws {
        let plan = try #require(ColourPlan(transfer: .hlg, primaries: .bt2020, hdr: nil))
        #expect(ColourShader.Variant(plan).defines == "#define COLOUR\n#define COLOUR_HLG\n#define TONE_MAP\n")
        let u = ColourShader.Uniforms(plan)
        #expect(close(u.linearisation.x, 0.0107102135) && close(u.linearisation.y, 1000.0 / 203)
                && close(u.linearisation.z, 0.2))
        // BT.2020's luminance row (BT.2087).
        #expect(close(u.sourceLuma.x, 0.2627, 1e-3) && close(u.sourceLuma.y, 0.6780, 1e-3)
                && close(u.sourceLuma.z, 0.0593, 1e-3))
    }

    @Test("BT.2020 SDR: BT.1886 at 203 cd/m², no curve, BT.2020→BT.709 normalised to the target's span")
    func bt2020SDR() throws {
        let plan = try #require(ColourPlan(transfer: .bt2020_10, primaries: .bt2020, hdr: nil))
        #expect(ColourShader.Variant(plan).defines == "#define COLOUR\n#define COLOUR_BT1886\n")
        let u = ColourShader.Uniforms(plan)
        #expect(close(u.linearisation.x, 0.0562341325) && close(u.linearisation.y, 1) && u.linearisation.z == 0)
        // BT.2087's BT.2020→BT.709 matrix, row 0 (1.6605, −0.5876, −0.0728), column-major,
        // divided by 1 − 0.001; white stays white, so each offset is −0.001/0.999.
        let m = u.outMatrix
        #expect(close(m[0], 1.6605 / 0.999, 1e-3) && close(m[3], -0.5876 / 0.999, 1e-3) && close(m[6], -0.0728 / 0.999, 1e-3))
        #expect(close(u.outOffset.x, -0.001001) && close(u.outOffset.y, -0.001001) && close(u.outOffset.z, -0.001001))
    }

    @Test("SDR in BT.709 has no plan: the plain program, as before")
    func sdr() {
        #expect(ColourPlan(transfer: .bt709, primaries: .bt709, hdr: nil) == nil)
    }
}
