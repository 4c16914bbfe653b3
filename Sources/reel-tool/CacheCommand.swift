import ArgumentParser
import Foundation
import ReelCommandLine
import ReelEngine

/// `reel-tool cache`: the stream cache from the command line: preload a URL, list what is
/// cached, clear it. Threading: runs on the main thread (a fetch blocks it until done).
struct CacheCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache", abstract: "Download remote media for offline play, list or clear the cache.",
        subcommands: [Fetch.self, List.self, Clear.self])

    struct Location: ParsableArguments {
        @Option(name: .customLong("cache-dir"), help: "The cache folder (default: $XDG_CACHE_HOME/reel/streams).")
        var directory: String?

        var options: StreamCacheOptions {
            var o = StreamCacheOptions()
            o.directory = directory
            return o
        }
    }

    struct Fetch: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Download an http(s) URL wholly into the cache (what is cached already is kept).")

        @Argument(help: "An http(s):// URL.") var url: String
        @OptionGroup var location: Location
        @Option(help: "Seconds of failing reconnections before giving up.") var retry: Double = 20

        func run() throws {
            var options = location.options
            options.retryWindow = retry
            let download = try OfflineDownload(url: url, options: options)
            let bar = ProgressBar(enabled: isatty(STDERR_FILENO) == 1)
            let started = Date()
            let path = try download.run { bar.show($0) }
            bar.finish()
            let item = StreamCache(options: options).list().first { $0.path == path }
            Output.line(["url": download.url, "path": path, "bytes": item?.cachedBytes ?? 0,
                         "seconds": Output.round(Date().timeIntervalSince(started))])
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List cached media, most recently used first.")
        @OptionGroup var location: Location

        func run() throws {
            let cache = StreamCache(options: location.options)
            let items = cache.list()
            Output.line(["directory": cache.directory,
                         "disk_bytes": items.reduce(Int64(0)) { $0 + $1.diskBytes },
                         "items": items.map { item -> [String: Any] in
                             ["url": item.url, "path": item.path, "cached_bytes": item.cachedBytes,
                              "length": item.length as Any, "complete": item.complete,
                              "disk_bytes": item.diskBytes,
                              "last_used": ISO8601DateFormatter().string(from: item.lastUsed)]
                         }])
        }
    }

    struct Clear: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove every cached item not in use.")
        @OptionGroup var location: Location

        func run() throws {
            let cache = StreamCache(options: location.options)
            let removed = cache.clear()
            Output.line(["removed": removed, "left": cache.list().count])
        }
    }
}

/// A one-line progress bar on a terminal's stderr (nothing when stderr is not a terminal).
/// Threading: main thread only.
final class ProgressBar {
    private let enabled: Bool
    private var last = Date.distantPast

    init(enabled: Bool) { self.enabled = enabled }

    func show(_ p: DownloadProgress) {
        guard enabled, Date().timeIntervalSince(last) > 0.1 else { return }
        last = Date()
        let mb = Double(p.bytes) / 1_048_576
        guard let total = p.expected, total > 0 else {
            Output.progress(String(format: "\r%.1f MB", mb))
            return
        }
        let fraction = min(1, Double(p.bytes) / Double(total))
        let width = 30
        let filled = Int(fraction * Double(width))
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        Output.progress(String(format: "\r[%@] %3.0f%%  %.1f / %.1f MB", bar, fraction * 100, mb,
                               Double(total) / 1_048_576))
    }

    func finish() { if enabled { Output.progress("\n") } }
}
