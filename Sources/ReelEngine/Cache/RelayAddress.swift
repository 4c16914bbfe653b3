import Foundation

/// How the cache relay (`CacheRelay`) names remote resources on the loopback address, and back.
/// `http://127.0.0.1:PORT/TOKEN/https/host:port/dir/file?query` stands for
/// `https://host:port/dir/file?query`: the scheme and authority become the first path
/// components, so a reference relative to a manifest resolves to a relay address too, and the
/// random token keeps other local users from reading the cache through the relay. A reference
/// from the server's root (`/media/x.m4s`) loses the token and the origin when resolved; it is
/// taken to mean the manifest's own origin, the only one it can mean.
/// Threading: a value type.
struct RelayAddress: Sendable, Equatable {
    let port: Int
    let token: String
    /// The manifest's scheme and authority (`https://host:port`), for root-relative references.
    let origin: String

    init(port: Int, token: String, manifest: String) {
        self.port = port
        self.token = token
        origin = Self.origin(of: manifest) ?? ""
    }

    /// The relay's address for an http(s) URL; nil for any other scheme.
    func local(_ url: String) -> String? {
        guard let split = Self.split(url) else { return nil }
        return "http://127.0.0.1:\(port)/\(token)/\(split.scheme)/\(split.rest)"
    }

    /// The remote URL a request target (`/TOKEN/...` or a root-relative path) stands for; nil
    /// when it names none (another form of target, another scheme, no host).
    func remote(target: String) -> String? {
        guard target.hasPrefix("/"), !target.hasPrefix("//") else { return nil }
        let prefix = "/\(token)/"
        guard target.hasPrefix(prefix) else {
            return origin.isEmpty ? nil : origin + target
        }
        let rest = target.dropFirst(prefix.count)
        guard let slash = rest.firstIndex(of: "/") else { return nil }
        let scheme = rest[..<slash].lowercased()
        guard scheme == "http" || scheme == "https" else { return nil }
        let url = scheme + "://" + rest[rest.index(after: slash)...]
        guard let parsed = URL(string: url), let host = parsed.host, !host.isEmpty else { return nil }
        return url
    }

    /// `scheme://authority` of an http(s) URL.
    static func origin(of url: String) -> String? {
        guard let split = split(url) else { return nil }
        let authority = split.rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        return authority.isEmpty ? nil : "\(split.scheme)://\(authority)"
    }

    private static func split(_ url: String) -> (scheme: String, rest: Substring)? {
        guard let range = url.range(of: "://") else { return nil }
        let scheme = url[..<range.lowerBound].lowercased()
        guard scheme == "http" || scheme == "https" else { return nil }
        let rest = url[range.upperBound...]
        guard !rest.isEmpty, !rest.hasPrefix("/") else { return nil }
        // A fragment is never sent to a server.
        return (scheme, rest.prefix { $0 != "#" })
    }
}
