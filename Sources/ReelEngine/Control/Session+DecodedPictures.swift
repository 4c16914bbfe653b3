/// The session's pictures as the seek coordinator sees them.
/// Threading: control thread, like every other command to the session.
extension Session {
    /// What is decoded around the picture on screen now (nil without video).
    var decodedPictures: DecodedPictures? {
        guard let presentation, let frameQueue else { return nil }
        let strip = frameQueue.strip
        var pictures = DecodedPictures(shown: presentation.currentFrame.map { ($0.pts, $0.duration) })
        pictures.ahead = strip.future
        // The last of the past is the picture on screen.
        pictures.behind = strip.past.dropLast().reversed()
        pictures.decoderEnded = strip.decoderEnded
        pictures.reach = { [self] request in reach(request) }
        return pictures
    }
}
