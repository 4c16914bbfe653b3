import CGtk
import Foundation
import ReelEngine
import ReelGtk

/// The picture the desktop shows beside what plays (MPRIS's `mpris:artUrl`): the file's cover
/// art (an attached picture, its image file as it is) when it has one, else a key frame of its
/// video; sound without cover art has none, and neither has streamed media (a picture would
/// download the stream a second time). Each is written once, to
/// `$XDG_CACHE_HOME/reel/art/` under a hash of the file's path, size and modification time (an
/// edited file gets a new picture), and found there again on later plays.
/// Threading: main thread only; pictures are read, made and written one at a time on `work`.
@MainActor
final class NowPlayingArt {
    /// Pictures kept: as a new one is written, all but the newest this many are deleted (a
    /// picture used again counts as new). A picture is a few hundred kilobytes at most, so
    /// the folder stays under about 30 MB however many files are played; pictures are made
    /// again when an old file comes back.
    nonisolated static let kept = 100
    /// Pictures made from video fit 512×512 (the longer side is 512): the largest the desktop
    /// shows them (a lock screen, a media panel), sharp at twice the scale.
    nonisolated static let size = ThumbnailSize.fitting(width: 512, height: 512)
    /// How far into a video its picture is taken: a tenth, past an opening black or title
    /// fade, and early enough to give nothing away.
    nonisolated static let pictureFraction = 0.1

    /// One picture at a time, in the order asked, below playback's priority: skipping quickly
    /// through a queue must not start a decoder per item at once.
    private nonisolated static let work = DispatchQueue(label: "reel.art", qos: .utility)

    let directory: URL
    /// Pictures known, by source: a file URL, or "" when there is none.
    private var pictures: [String: String] = [:]
    private var making: Set<String> = []

    init(directory: URL? = nil) {
        self.directory = directory ?? {
            let cache = ProcessInfo.processInfo.environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
                ?? NSHomeDirectory() + "/.cache"
            return URL(fileURLWithPath: cache).appendingPathComponent("reel/art")
        }()
    }

    /// The picture's `file://` URL once it is written (nil: none, or not yet).
    func url(for source: MediaSource) -> String? {
        pictures[source.description].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Makes the picture of `source` (opened, as `info` describes it) unless it is known or
    /// being made; `written` runs once it is there to be read.
    func make(for source: MediaSource, info: MediaInfo, written: @escaping @MainActor () -> Void) {
        let key = source.description
        guard pictures[key] == nil, !making.contains(key) else { return }
        let cover = info.streams.contains(where: \.isAttachedPicture), video = info.videoStream != nil
        guard case .file(let path) = source.location, cover || video else {
            pictures[key] = ""
            return
        }
        making.insert(key)
        let directory = directory
        let time = (info.duration ?? 0) * Self.pictureFraction
        Self.work.async {
            let file = Self.write(source, path: path, cover: cover, video: video, at: time, into: directory)
            MainContext.async { [weak self] in
                guard let self else { return }
                self.making.remove(key)
                self.pictures[key] = file?.absoluteString ?? ""
                if file != nil { written() }
            }
        }
    }

    /// The picture's file, found or written (nil: none could be made).
    nonisolated private static func write(_ source: MediaSource, path: String, cover: Bool, video: Bool, at time: Double,
                                          into directory: URL) -> URL? {
        let files = FileManager.default
        guard let name = name(of: path) else { return nil }
        for ext in ["png", "jpg"] {
            let found = directory.appendingPathComponent("\(name).\(ext)")
            if files.fileExists(atPath: found.path) {
                try? files.setAttributes([.modificationDate: Date()], ofItemAtPath: found.path)
                return found
            }
        }
        var picture: (data: Data, ext: String)?
        if cover, let bytes = CoverArt.read(source), !bytes.isEmpty {
            picture = (bytes, bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) ? "png" : "jpg")
        }
        if picture == nil, video, let png = try? KeyFramePicture.make(source, at: time, size: size).pngData() {
            picture = (png, "png")
        }
        guard let picture else { return nil }
        let file = directory.appendingPathComponent("\(name).\(picture.ext)")
        do {
            try files.createDirectory(at: directory, withIntermediateDirectories: true)
            try picture.data.write(to: file, options: .atomic)
        } catch {
            FileHandle.standardError.write(Data("reel: cannot write the picture \(file.path): \(error.localizedDescription)\n".utf8))
            return nil
        }
        prune(directory)
        return file
    }

    /// A name for the file's picture: SHA-256 of its path, size and modification time.
    nonisolated private static func name(of path: String) -> String? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else { return nil }
        let size = (attributes[.size] as? NSNumber)?.int64Value ?? 0
        let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
        return GString.take(g_compute_checksum_for_string(G_CHECKSUM_SHA256, "\(path)\n\(size)\n\(modified)", -1))
    }

    /// Deletes all but the newest `kept` pictures.
    nonisolated static func prune(_ directory: URL, keeping kept: Int = kept) {
        let files = FileManager.default
        guard let names = try? files.contentsOfDirectory(at: directory, includingPropertiesForKeys: [.contentModificationDateKey])
        else { return }
        guard names.count > kept else { return }
        let dated = names.map { ($0, (try? $0.resourceValues(forKeys: [.contentModificationDateKey]).contentModificationDate) ?? .distantPast) }
        for (file, _) in dated.sorted(by: { $0.1 > $1.1 }).dropFirst(kept) { try? files.removeItem(at: file) }
    }
}
