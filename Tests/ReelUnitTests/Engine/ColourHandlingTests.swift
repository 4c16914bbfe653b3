import Foundation
import ReelEngine
import Testing

/// What Reel says of a video's colours and does about them, as plain values: each kind of
/// picture named with its peak and curve, and the Dolby Vision policy (a configuration record
/// in, what plays, what is said and whether to warn out). Threading: stateless, runs anywhere.
@Suite("Colour handling")
struct ColourHandlingTests {
    static let hdr10Metadata = HDRMetadata(mastering: .init(minLuminance: 0.0001, maxLuminance: 1000),
                                           maxCLL: 1000, maxFALL: 400)

    static func dolbyVision(_ profile: Int, _ compatibility: Int, base: Bool = true) -> DolbyVision {
        DolbyVision(profile: profile, level: 6, hasRPU: true, hasEnhancementLayer: profile == 7, hasBaseLayer: base,
                    compatibility: compatibility)
    }

    @Test("Each kind of picture is named with its peak, where the peak came from and the curve used")
    func kinds() throws {
        let hdr10 = try #require(ColourHandling(colour: PictureColour(primaries: .bt2020, transfer: .pq,
                                                                       hdr: Self.hdr10Metadata)))
        #expect(hdr10.signal == .hdr10 && hdr10.peak == 1000 && hdr10.peakSource == .mastering)
        #expect(hdr10.curve == "bt.2390" && hdr10.mode == .luma && hdr10.mapsGamut)
        #expect(hdr10.description == "HDR10 (PQ, BT.2020), mastering peak 1000 cd/m²; tone mapping: BT.2390 to SDR, luma; "
                + "gamut: BT.2020 clipped to BT.709")

        let bare = try #require(ColourHandling(colour: PictureColour(primaries: .bt2020, transfer: .pq)))
        #expect(bare.peak == 10000 && bare.peakSource == .assumed && bare.mode == .hybrid)
        #expect(bare.description.hasPrefix("HDR10 (PQ, BT.2020), peak 10000 cd/m² assumed; tone mapping: BT.2390 to SDR, hybrid"))

        let cll = try #require(ColourHandling(colour: PictureColour(primaries: .smpte432, transfer: .pq,
                                                                     hdr: HDRMetadata(maxCLL: 600))))
        #expect(cll.signal == .pq && cll.peakSource == .contentLight)
        #expect(cll.description.hasPrefix("PQ (Display P3), MaxCLL 600 cd/m²"))

        let hlg = try #require(ColourHandling(colour: PictureColour(primaries: .bt2020, transfer: .hlg)))
        #expect(hlg.signal == .hlg && hlg.peak == 1000 && hlg.peakSource == .assumed && hlg.mode == .luma)
        #expect(hlg.description.hasPrefix("HLG (BT.2020), peak 1000 cd/m² assumed; tone mapping: BT.2390 to SDR, luma"))

        let wide = try #require(ColourHandling(colour: PictureColour(primaries: .bt2020, transfer: .bt2020_10)))
        #expect(wide.signal == .wideGamutSDR && wide.peak == nil && wide.curve == nil && wide.mode == .none)
        #expect(wide.description == "BT.2020 SDR; gamut: BT.2020 clipped to BT.709")

        #expect(ColourHandling(colour: PictureColour(primaries: .bt709, transfer: .bt709)) == nil, "plain SDR: nothing to say")
        #expect(ColourHandling(colour: PictureColour()) == nil)
    }

    @Test("Dolby Vision with an HDR10 or HLG base layer plays that layer and says so; profile 5 warns")
    func dolbyVisionPolicy() throws {
        let p81 = Self.dolbyVision(8, 1), p84 = Self.dolbyVision(8, 4), p7 = Self.dolbyVision(7, 6)
        let p5 = Self.dolbyVision(5, 0), p82 = Self.dolbyVision(8, 2)
        #expect(p81.warning(stream: 0) == nil && p84.warning(stream: 0) == nil && p7.warning(stream: 0) == nil)
        #expect(p82.warning(stream: 0) == nil)
        #expect(p81.description == "Dolby Vision profile 8.1, HDR10 base layer")
        #expect(p84.description == "Dolby Vision profile 8.4, HLG base layer")
        #expect(p7.description == "Dolby Vision profile 7, HDR10 base layer")
        let warning = try #require(p5.warning(stream: 1))
        #expect(warning == .dolbyVisionColours(stream: 1, profile: "5"))
        #expect(warning.code == "dolby_vision_colours")
        #expect(warning.description == "Video stream 1 is Dolby Vision profile 5, which Reel cannot colour: its colours will be wrong")
        #expect(Self.dolbyVision(8, 1, base: false).warning(stream: 0) != nil, "no base layer, nothing stands alone")

        // The base layer plays by its own tags: profile 8.1's HDR10 is tone-mapped as HDR10 is.
        let tagged = PictureColour(primaries: .bt2020, transfer: .pq, hdr: Self.hdr10Metadata)
        let asHDR10 = try #require(ColourHandling(colour: tagged, dolbyVision: p81))
        #expect(asHDR10.signal == .hdr10 && asHDR10.curve == "bt.2390" && asHDR10.dolbyVision == p81)
        #expect(asHDR10.description.hasSuffix("; Dolby Vision profile 8.1, HDR10 base layer"))
        // Profile 5 says so even with no tags that plan anything.
        let profile5 = try #require(ColourHandling(colour: PictureColour(), dolbyVision: p5))
        #expect(profile5.signal == nil && profile5.curve == nil)
        #expect(profile5.description == "Dolby Vision profile 5, no base layer Reel can show: its colours will be wrong")
    }
}
