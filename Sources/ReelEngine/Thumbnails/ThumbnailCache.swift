/// The thumbnails already made, bounded by the bytes their pixels take; when a new one does
/// not fit, the least recently used go first. A thumbnail larger than the whole budget is not
/// kept (a budget of 0 keeps nothing).
/// Threading: a value type; the provider keeps it on its decode thread.
struct ThumbnailCache {
    /// One picture at one size and shape: the key frame's timestamp (in its stream's time base)
    /// is what makes nearby hover positions that show the same key frame hit the same entry;
    /// the person's transform is part of it, so a picture turned, mirrored or cropped otherwise
    /// is never answered with the old shape.
    struct Key: Hashable {
        let picture: Int64
        let size: ThumbnailSize
        let transform: PictureTransform

        init(picture: Int64, size: ThumbnailSize, transform: PictureTransform = .identity) {
            self.picture = picture
            self.size = size
            self.transform = transform
        }
    }

    let budget: Int
    private(set) var bytes = 0
    private var entries: [Key: (thumbnail: Thumbnail, lastUse: UInt64)] = [:]
    private var clock: UInt64 = 0

    init(budget: Int) { self.budget = max(0, budget) }

    var count: Int { entries.count }

    /// The thumbnail for `key`, now the most recently used.
    mutating func lookup(_ key: Key) -> Thumbnail? {
        guard let entry = entries[key] else { return nil }
        clock += 1
        entries[key] = (entry.thumbnail, clock)
        return entry.thumbnail
    }

    mutating func insert(_ thumbnail: Thumbnail, for key: Key) {
        if let old = entries.removeValue(forKey: key) { bytes -= old.thumbnail.byteCount }
        guard thumbnail.byteCount <= budget else { return }
        // A few hundred entries at most (24 MiB of 160-pixel-high pictures): a scan for the
        // oldest is cheaper than keeping a linked list in step.
        while bytes + thumbnail.byteCount > budget, let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse }) {
            entries.removeValue(forKey: oldest.key)
            bytes -= oldest.value.thumbnail.byteCount
        }
        clock += 1
        entries[key] = (thumbnail, clock)
        bytes += thumbnail.byteCount
    }

    func contains(_ key: Key) -> Bool { entries[key] != nil }
}
