import CFFmpeg

/// A negative FFmpeg return code and the operation that produced it.
/// EAGAIN and EOF are not thrown on the hot paths; those calls return them as values.
/// Threading: a value type.
package struct FFmpegError: Error, CustomStringConvertible {
    package let code: Int32
    package let operation: String

    package var description: String { "\(operation): \(FFmpegError.text(for: code))" }

    package static func text(for code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        return buffer.withUnsafeMutableBufferPointer { buf in
            String(cString: reel_error_string(code, buf.baseAddress, buf.count))
        }
    }

    package static let eof = reel_averror_eof()
    package static let again = reel_averror_eagain()
    package static let exit = reel_averror_exit()
    package static let invalidData = reel_averror_invaliddata()

    package static func posix(_ errno: Int32) -> Int32 { reel_averror(errno) }
}

@discardableResult
package func check(_ code: Int32, _ operation: @autoclosure () -> String) throws(FFmpegError) -> Int32 {
    if code < 0 { throw FFmpegError(code: code, operation: operation()) }
    return code
}
