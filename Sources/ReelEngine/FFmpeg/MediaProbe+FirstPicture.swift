import CFFmpeg

/// HDR metadata that only the pictures carry. HEVC and AV1 put the mastering display and the
/// content light level in the bitstream (SEI, metadata OBUs), and Matroska files muxed from
/// such streams often repeat none of it in the container: then only decoding says it. This is
/// for `MediaInspector` alone; playback reads it from every frame anyway.
/// Threading: called on the thread that owns the input, before anyone else reads from it.
extension MediaProbe {
    /// Packets read at most to find the first picture.
    private static let firstPictureBudget = 500

    /// `info` with the selected video stream's HDR metadata taken from its first picture, when
    /// its transfer is PQ or HLG and the container says nothing of it.
    static func completingHDR(_ info: MediaInfo, input: MediaInput) -> MediaInfo {
        guard let index = info.selectedVideoStream, let position = info.streams.firstIndex(where: { $0.index == index }),
              let colour = info.streams[position].colour, colour.transfer.isHDR, colour.hdr == nil,
              let hdr = firstPictureHDR(input: input, stream: index) else { return info }
        var completed = info
        completed.streams[position].colour?.hdr = hdr
        return completed
    }

    /// Decodes the stream's first picture and returns what its side data says.
    private static func firstPictureHDR(input: MediaInput, stream index: Int) -> HDRMetadata? {
        guard let decoder = try? Decoder(stream: input.stream(index), threads: 1) else { return nil }
        let packet = Packet(), frame = Frame()
        func picture() -> HDRMetadata?? {
            while case .frame = decoder.receive(into: frame) {
                if frame.width > 0 { return .some(HDRMetadata(frame: frame.pointer)) }
                frame.unref()
            }
            return nil
        }
        var again = 0
        for _ in 0..<firstPictureBudget {
            packet.unref()
            let result = input.read(into: packet)
            if result == FFmpegError.again {
                again += 1
                if again > 3 { input.waitForData() }
                continue
            }
            again = 0
            if result < 0 { break }
            guard packet.streamIndex == index else { continue }
            while case .full = decoder.send(packet) {
                if let found = picture() { return found }
            }
            if let found = picture() { return found }
        }
        _ = decoder.send(nil)
        return picture() ?? nil
    }
}
