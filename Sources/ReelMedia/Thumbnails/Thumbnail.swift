import Foundation

/// A small picture of one moment of a video, for a hover preview: the key frame nearest the
/// time asked for, scaled to a thumbnail size with the display aspect ratio (sample aspect
/// ratio and rotation applied, then the person's `PictureTransform`), as 8-bit RGBA rows with
/// opaque alpha — the layout GDK's `GDK_MEMORY_R8G8B8A8` memory textures take as they are.
/// Threading: immutable; shareable across threads.
public struct Thumbnail: Sendable {
    /// The time that was asked for (the hover position), in seconds from the media's start.
    public let requestedTime: Double
    /// The picture's own time: the key frame's presentation time, in seconds from the start.
    public let frameTime: Double
    public let width: Int
    public let height: Int
    /// Bytes from one row to the next (`width * 4`: rows are packed).
    public let bytesPerRow: Int
    /// `height` rows of `width` RGBA pixels.
    public let pixels: Data
    /// Whether the picture came from the cache rather than a decode.
    public let fromCache: Bool

    /// Bytes a cache spends on it.
    public var byteCount: Int { pixels.count }

    package init(requestedTime: Double, frameTime: Double, width: Int, height: Int, pixels: Data, fromCache: Bool) {
        self.requestedTime = requestedTime
        self.frameTime = frameTime
        self.width = width
        self.height = height
        bytesPerRow = width * 4
        self.pixels = pixels
        self.fromCache = fromCache
    }

    /// The picture as a PNG file's bytes.
    public func pngData() throws(PlayerError) -> Data {
        try FrameExport.png(rgba: pixels, width: width, height: height)
    }

    /// The same picture answering another request.
    package func answering(_ time: Double, fromCache: Bool) -> Thumbnail {
        Thumbnail(requestedTime: time, frameTime: frameTime, width: width, height: height,
                  pixels: pixels, fromCache: fromCache)
    }
}

/// What one request gives: a picture, or why there is none. Threading: a value type.
public struct ThumbnailResult: Sendable {
    /// The hover time this answers.
    public let requestedTime: Double
    /// The shape the picture was asked in: a host that has changed it since drops the answer.
    public let transform: PictureTransform
    public let outcome: Result<Thumbnail, ThumbnailError>

    package init(requestedTime: Double, transform: PictureTransform, outcome: Result<Thumbnail, ThumbnailError>) {
        self.requestedTime = requestedTime
        self.transform = transform
        self.outcome = outcome
    }

    public var thumbnail: Thumbnail? { try? outcome.get() }
    public var error: ThumbnailError? {
        if case .failure(let error) = outcome { return error }
        return nil
    }
}
