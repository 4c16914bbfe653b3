import Foundation
import ReelTestSupport
@testable import ReelEngine
import Testing

/// Hover previews (and the now-playing picture, which the same reader draws) of HDR video are
/// tone-mapped as the picture is: against FFmpeg's `libplacebo` filter scaling the same key
/// frame to the thumbnail's size.
@Suite("Tone-mapped thumbnails")
struct ToneMappedThumbnailTests {
    /// The colour mathematics and the scaling differ a little from libplacebo's (Reel scales the
    /// signal, libplacebo the light); a thumbnail through libswscale's matrix alone scores ~10 dB.
    static let bar = 30.0

    @Test("A PQ thumbnail is libplacebo's BT.2390 picture at the thumbnail's size",
          arguments: [Fixtures.Spec.pqWithMetadata, .hlg])
    func toneMapped(_ spec: Fixtures.Spec) throws {
        let path = try Fixtures.path(spec)
        let recorder = ThumbnailRecorder()
        let provider = ThumbnailProvider(source: MediaSource(path: path), size: .height(180), deliver: recorder.deliver)
        defer { provider.close() }
        let thumbnail = try recorder.ask(provider, 0.5).outcome.get()
        #expect(thumbnail.width == 320 && thumbnail.height == 180)
        // These one-second clips have one key frame, the first.
        #expect(thumbnail.frameTime == 0, "the thumbnail shows the frame at \(thumbnail.frameTime) s")
        let reference = try PlaceboOracle.reference(of: path, frame: 0, variant: .tight,
                                                    size: (thumbnail.width, thumbnail.height))
        let oracle = try Command.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin", "-i", reference,
                                      "-f", "rawvideo", "-pix_fmt", "rgba", "-"]).stdout
        let psnr = ThumbnailOracle.psnr(thumbnail.pixels, oracle)
        print("\(spec.name) thumbnail \(thumbnail.width)×\(thumbnail.height): \(psnr) dB against libplacebo")
        #expect(psnr >= Self.bar, "\(spec.name): \(psnr) dB against libplacebo's picture at the thumbnail's size")
    }
}
