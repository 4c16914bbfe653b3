import CCurl
import Foundation

/// One HTTP(S) GET (or HEAD) from a byte offset through libcurl, delivering the body as it
/// arrives. Redirects are followed here rather than by curl so each hop can be checked: only
/// http and https, and never from https down to http. TLS certificates are verified (curl's
/// default, kept). Threading: `run` blocks the calling thread (the download thread) until the
/// transfer ends; the callbacks run on that same thread.
final class HTTPTransfer {
    /// What a response said about the resource.
    struct Response: Sendable {
        var status = 0
        var etag: String?
        var lastModified: String?
        /// The media type the server gave (`application/dash+xml`), without parameters.
        var contentType: String?
        /// Where the body starts in the resource (0 for a 200).
        var start: Int64 = 0
        /// The resource's full length, when the server says it.
        var totalLength: Int64?
    }

    enum Failure: Error, Sendable {
        /// Worth retrying: reset, timed out, 5xx.
        case transient(String)
        /// No connection at all (refused, no route, name unknown): retried mid-stream, but
        /// a first open with nothing cached fails at once.
        case unreachable(String)
        /// Not worth retrying: 404, 403, bad redirect, TLS failure.
        case permanent(String)
    }

    enum Outcome {
        case finished(Response)
        /// The caller's callbacks stopped it.
        case stopped(Response?)
        case failed(Failure)
    }

    private static let globalInit: Bool = { curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK }()
    static let maxRedirects = 8

    private let onResponse: (Response) -> Bool
    private let onData: (UnsafeRawBufferPointer) -> Bool
    private let shouldStop: () -> Bool
    /// Sent with every request (a web page's server may want its Referer or User-Agent).
    private let requestHeaders: RequestHeaders
    private var headerLines: [String] = []
    private var response: Response?
    private var stoppedByCaller = false
    private var handle: UnsafeMutableRawPointer?
    /// Where the last redirect led (the URL the bytes came from).
    private(set) var finalURL: String?

    /// `onResponse` sees the final response before any body byte and returns false to stop;
    /// `onData` returns false to stop; `shouldStop` is polled while nothing arrives.
    init(headers: RequestHeaders = RequestHeaders(), onResponse: @escaping (Response) -> Bool,
         onData: @escaping (UnsafeRawBufferPointer) -> Bool, shouldStop: @escaping () -> Bool) {
        requestHeaders = headers
        self.onResponse = onResponse
        self.onData = onData
        self.shouldStop = shouldStop
    }

    func run(url start: String, from offset: Int64, headOnly: Bool = false) -> Outcome {
        guard Self.globalInit, let curl = curl_easy_init() else { return .failed(.permanent("libcurl cannot start")) }
        handle = curl
        defer { curl_easy_cleanup(curl); handle = nil }
        var url = start
        for _ in 0...Self.maxRedirects {
            headerLines = []
            response = nil
            configure(curl, url: url, offset: offset, headOnly: headOnly)
            // A cookie goes only to the host it was given for, not to where a redirect leads.
            var list: UnsafeMutablePointer<curl_slist>?
            for line in requestHeaders.lines(toward: url, from: start) { list = curl_slist_append(list, line) }
            _ = reel_curl_set_slist(curl, CURLOPT_HTTPHEADER, list)
            let code = curl_easy_perform(curl)
            _ = reel_curl_set_slist(curl, CURLOPT_HTTPHEADER, nil)
            curl_slist_free_all(list)
            if stoppedByCaller { return .stopped(response) }
            if code != CURLE_OK {
                let text = String(cString: curl_easy_strerror(code))
                switch code {
                case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CACERT_BADFILE, CURLE_UNSUPPORTED_PROTOCOL,
                     CURLE_URL_MALFORMAT, CURLE_SSL_CONNECT_ERROR:
                    return .failed(.permanent("\(text): \(url)"))
                case CURLE_COULDNT_CONNECT, CURLE_COULDNT_RESOLVE_HOST:
                    return .failed(.unreachable("\(text): \(url)"))
                default:
                    return .failed(.transient(text))
                }
            }
            let status = reel_curl_response_code(curl)
            if (300..<400).contains(status), let next = reel_curl_redirect_url(curl).map({ String(cString: $0) }) {
                if let refusal = Self.redirectRefusal(from: url, to: next) { return .failed(.permanent(refusal)) }
                url = next
                continue
            }
            finalURL = url
            let final = response ?? parseHeaders(status: Int(status))
            if response == nil {
                // No body at all (HEAD, an empty file, 416): the headers still tell.
                if (final.status < 400 || final.status == 416) && !onResponse(final) { return .stopped(final) }
            }
            return Self.classify(final)
        }
        return .failed(.permanent("too many redirects: \(start)"))
    }

    /// Why a redirect is refused, or nil when it may be followed.
    static func redirectRefusal(from: String, to: String) -> String? {
        let scheme = URL(string: to)?.scheme?.lowercased()
        guard scheme == "http" || scheme == "https" else { return "redirect to a scheme other than http(s) refused: \(to)" }
        if URL(string: from)?.scheme?.lowercased() == "https" && scheme == "http" {
            return "redirect from https to http refused: \(to)"
        }
        return nil
    }

    private static func classify(_ response: Response) -> Outcome {
        switch response.status {
        case 200..<300, 416: return .finished(response)
        case 500..<600, 408, 429: return .failed(.transient("HTTP \(response.status)"))
        case 404: return .failed(.permanent("HTTP 404 (not found)"))
        case 403: return .failed(.permanent("HTTP 403 (forbidden)"))
        default: return .failed(.permanent("HTTP \(response.status)"))
        }
    }

    private func configure(_ curl: UnsafeMutableRawPointer, url: String, offset: Int64, headOnly: Bool) {
        curl_easy_reset(curl)
        _ = reel_curl_set_string(curl, CURLOPT_URL, url)
        _ = reel_curl_set_string(curl, CURLOPT_PROTOCOLS_STR, "http,https")
        _ = reel_curl_set_string(curl, CURLOPT_USERAGENT, "Reel/\(ReelVersion.string)")
        _ = reel_curl_set_long(curl, CURLOPT_NOSIGNAL, 1)
        _ = reel_curl_set_long(curl, CURLOPT_FOLLOWLOCATION, 0)
        _ = reel_curl_set_long(curl, CURLOPT_CONNECTTIMEOUT, 10)
        // A connection that delivers nothing for this long is dropped and retried.
        _ = reel_curl_set_long(curl, CURLOPT_LOW_SPEED_LIMIT, 1)
        _ = reel_curl_set_long(curl, CURLOPT_LOW_SPEED_TIME, 8)
        if headOnly { _ = reel_curl_set_long(curl, CURLOPT_NOBODY, 1) }
        if offset > 0 { _ = reel_curl_set_string(curl, CURLOPT_RANGE, "\(offset)-") }
        let me = Unmanaged.passUnretained(self).toOpaque()
        _ = reel_curl_set_pointer(curl, CURLOPT_HEADERDATA, me)
        _ = reel_curl_set_data_callback(curl, CURLOPT_HEADERFUNCTION) { ptr, size, count, user in
            let transfer = Unmanaged<HTTPTransfer>.fromOpaque(user!).takeUnretainedValue()
            let n = size * count
            if let ptr, let line = String(bytes: UnsafeRawBufferPointer(start: ptr, count: n), encoding: .isoLatin1) {
                let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
                if trimmed.hasPrefix("HTTP/") { transfer.headerLines = [] }
                if !trimmed.isEmpty { transfer.headerLines.append(trimmed) }
            }
            return n
        }
        _ = reel_curl_set_pointer(curl, CURLOPT_WRITEDATA, me)
        _ = reel_curl_set_data_callback(curl, CURLOPT_WRITEFUNCTION) { ptr, size, count, user in
            let transfer = Unmanaged<HTTPTransfer>.fromOpaque(user!).takeUnretainedValue()
            return transfer.received(ptr, size * count)
        }
        _ = reel_curl_set_long(curl, CURLOPT_NOPROGRESS, 0)
        _ = reel_curl_set_pointer(curl, CURLOPT_XFERINFODATA, me)
        _ = reel_curl_set_progress_callback(curl) { user, _, _, _, _ in
            let transfer = Unmanaged<HTTPTransfer>.fromOpaque(user!).takeUnretainedValue()
            if transfer.shouldStop() { transfer.stoppedByCaller = true; return 1 }
            return 0
        }
    }

    private func received(_ ptr: UnsafeMutablePointer<CChar>?, _ n: Int) -> Int {
        guard let curl = handle else { return reel_curl_abort_write() }
        let status = Int(reel_curl_response_code(curl))
        // Bodies of redirects and errors are not the resource.
        if status >= 300 { return n }
        if response == nil {
            let parsed = parseHeaders(status: status)
            response = parsed
            if !onResponse(parsed) { stoppedByCaller = true; return reel_curl_abort_write() }
        }
        guard let ptr else { return n }
        if !onData(UnsafeRawBufferPointer(start: ptr, count: n)) { stoppedByCaller = true; return reel_curl_abort_write() }
        return n
    }

    private func parseHeaders(status: Int) -> Response {
        var r = Response()
        r.status = status
        var contentLength: Int64?
        for line in headerLines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            switch name {
            case "etag": r.etag = value
            case "last-modified": r.lastModified = value
            case "content-type": r.contentType = value.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            case "content-length": contentLength = Int64(value)
            case "content-range":
                // "bytes 100-199/1000" or "bytes */1000"
                let spec = value.hasPrefix("bytes ") ? String(value.dropFirst(6)) : value
                let parts = spec.split(separator: "/", maxSplits: 1)
                if parts.count == 2 {
                    r.totalLength = Int64(parts[1])
                    if let dash = parts[0].firstIndex(of: "-"), let s = Int64(parts[0][..<dash]) { r.start = s }
                }
            default: break
            }
        }
        if status == 200 { r.start = 0; r.totalLength = contentLength }
        return r
    }
}
