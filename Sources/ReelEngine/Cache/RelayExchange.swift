import Foundation

/// One request to the cache relay and the head of its answer, as plain text: what FFmpeg's
/// http client sends (`GET target HTTP/1.1` with `Range: bytes=N-` or `bytes=N-M`) and the
/// few answers the relay gives. Everything else is refused. Threading: values.
enum RelayExchange {
    /// The most of a request head the relay reads before refusing it.
    static let largestHead = 16 << 10

    struct Request: Equatable {
        let target: String
        /// The first byte asked for, and the last (inclusive) when given.
        var rangeStart: Int64 = 0
        var rangeEnd: Int64?
        var hasRange = false
    }

    /// Parses a request head (without the blank line ending it); nil when it is not a GET
    /// the relay serves.
    static func parse(_ head: String) -> Request? {
        let lines = head.split(separator: "\r\n", omittingEmptySubsequences: false)
        guard let first = lines.first else { return nil }
        let parts = first.split(separator: " ")
        guard parts.count == 3, parts[0] == "GET", parts[2].hasPrefix("HTTP/1.") else { return nil }
        var request = Request(target: String(parts[1]))
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            guard line[..<colon].lowercased() == "range" else { continue }
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            guard value.hasPrefix("bytes="), !value.contains(",") else { return nil }
            let bounds = value.dropFirst(6).split(separator: "-", omittingEmptySubsequences: false)
            guard bounds.count == 2, let start = Int64(bounds[0]), start >= 0 else { return nil }
            request.rangeStart = start
            request.hasRange = true
            if !bounds[1].isEmpty {
                guard let end = Int64(bounds[1]), end >= start else { return nil }
                request.rangeEnd = end
            }
        }
        return request
    }

    /// The bytes to send for `request` of a resource of `length` (nil: not known), and the head
    /// saying so; nil range when nothing is to be sent (416).
    static func answer(_ request: Request, length: Int64?) -> (head: String, range: Range<Int64>?) {
        guard let length else {
            // Unknown length (a server sending chunks): from the start only, to the end.
            guard request.rangeStart == 0 else { return (head(416, ["Content-Range: bytes */*"]), nil) }
            return (head(200, []), 0..<Int64.max)
        }
        guard request.rangeStart < length || (length == 0 && request.rangeStart == 0) else {
            return (head(416, ["Content-Range: bytes */\(length)"]), nil)
        }
        let end = min(request.rangeEnd.map { $0 + 1 } ?? length, length)
        let range = request.rangeStart..<end
        if !request.hasRange {
            return (head(200, ["Content-Length: \(length)", "Accept-Ranges: bytes"]), range)
        }
        return (head(206, ["Content-Length: \(range.count)", "Accept-Ranges: bytes",
                           "Content-Range: bytes \(range.lowerBound)-\(max(range.lowerBound, end - 1))/\(length)"]), range)
    }

    /// A redirect to where the resource really is (the relay does not hold it: another player
    /// does, or it is the manifest the demuxer already reads).
    static func redirect(to url: String) -> String {
        head(307, ["Location: \(url)", "Content-Length: 0"])
    }

    /// A failure: 404 when the origin said so, else 502; 400 for a request the relay refuses.
    static func failure(_ status: Int) -> String { head(status, ["Content-Length: 0"]) }

    private static func head(_ status: Int, _ fields: [String]) -> String {
        let reason = [200: "OK", 206: "Partial Content", 307: "Temporary Redirect", 400: "Bad Request",
                      404: "Not Found", 416: "Range Not Satisfiable", 502: "Bad Gateway"][status] ?? "Error"
        return (["HTTP/1.1 \(status) \(reason)"] + fields + ["Connection: close", "", ""]).joined(separator: "\r\n")
    }
}
