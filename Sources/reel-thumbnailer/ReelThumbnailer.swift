import ArgumentParser
import Foundation
import ReelMedia

/// `reel-thumbnailer`: the picture a file manager shows for a video, as the freedesktop
/// thumbnailer protocol runs it (`Exec=reel-thumbnailer -s %s %u %o` in its `.thumbnailer`
/// file): one PNG, or a non-zero exit with one line on stderr and no file.
/// Threading: runs on the main thread, which decodes.
@main
struct ReelThumbnailer: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reel-thumbnailer",
        abstract: "Write a PNG thumbnail of a video for file managers.",
        discussion: """
            The picture is a key frame a little way into the video (a tenth of its length), or a \
            later one when that frame is black, blank or fading. It has the video's display shape \
            (non-square pixels and rotation applied) and HDR video is tone-mapped. On damaged or \
            unsupported input nothing is written and the exit status is 1.
            """,
        version: ReelVersion.string)

    @Option(name: .short, help: ArgumentHelp("The thumbnail's longer side, in pixels.", valueName: "size"))
    var size: Int = 256

    @Argument(help: "The video: a path or a file:// URI.")
    var input: String

    @Argument(help: "The PNG file to write.")
    var output: String

    func validate() throws {
        guard (1...4096).contains(size) else { throw ValidationError("the size must be 1 to 4096 pixels") }
    }

    func run() throws {
        let source: MediaSource
        do { source = try MediaSource(parsing: input) } catch {
            throw ThumbnailerFailure(error.message)
        }
        if case .remote = source.location { throw ThumbnailerFailure("\(input): only local files are thumbnailed") }
        let png: Data
        do {
            let choice = try PosterFrame.make(source, size: .fitting(width: size, height: size))
            png = try choice.thumbnail.pngData()
        } catch let error as ThumbnailError {
            throw ThumbnailerFailure("\(input): \(error.message)")
        } catch let error as PlayerError {
            throw ThumbnailerFailure("\(input): \(error.message)")
        }
        try ThumbnailOutput.write(png, to: output)
    }

    /// ArgumentParser's usage errors as they are; every other failure one line and status 1.
    /// The process ends with `_exit` once the PNG is in place or the line written (both
    /// unbuffered): the exit handlers and destructors of the ~180 libraries FFmpeg and the engine
    /// load have nothing to finish for a one-shot thumbnailer, and a file manager waits on them.
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
            _exit(0)
        } catch let failure as ThumbnailerFailure {
            FileHandle.standardError.write(Data("reel-thumbnailer: \(failure.message)\n".utf8))
            _exit(1)
        } catch {
            exit(withError: error)
        }
    }
}

/// Why no thumbnail was written, in one line. Threading: a value type.
struct ThumbnailerFailure: Error {
    let message: String
    init(_ message: String) { self.message = message }
}
