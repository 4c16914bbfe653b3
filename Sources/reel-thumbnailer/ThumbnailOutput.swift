import Foundation

/// Writes the PNG under a temporary name beside the output and renames it into place, so a
/// file manager never reads half a picture and a failure leaves no file behind.
/// Threading: blocking file I/O on the calling thread.
enum ThumbnailOutput {
    static func write(_ data: Data, to path: String) throws(ThumbnailerFailure) {
        let target = URL(fileURLWithPath: path)
        let directory = target.deletingLastPathComponent().path
        var template = Array((directory + "/.reel-thumbnailer-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw ThumbnailerFailure("cannot write in \(directory): \(String(cString: strerror(errno)))") }
        let temporary = String(cString: template)
        var ok = data.withUnsafeBytes { raw -> Bool in
            var offset = 0
            while offset < raw.count {
                let written = Foundation.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 { if errno == EINTR { continue }; return false }
                offset += written
            }
            return true
        }
        // Thumbnails are world-readable as the desktop's thumbnail cache expects (mkstemp makes 0600).
        ok = ok && fchmod(fd, 0o644) == 0
        let reason = String(cString: strerror(errno))
        close(fd)
        guard ok, rename(temporary, path) == 0 else {
            let why = ok ? String(cString: strerror(errno)) : reason
            unlink(temporary)
            throw ThumbnailerFailure("cannot write \(path): \(why)")
        }
    }
}
