/// The file name of a URL's cache entry: two independent 64-bit FNV-1a hashes of the URL, so
/// names are fixed-length and safe whatever the URL holds. The record stores the URL itself
/// and is checked on open, so even a collision only costs a refetch. Threading: pure.
enum CacheKey {
    static func of(_ url: String) -> String {
        var a: UInt64 = 0xcbf2_9ce4_8422_2325
        var b: UInt64 = 0x8422_2325_cbf2_9ce4
        for byte in url.utf8 {
            a = (a ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            b = (b &* 0x0000_0100_0000_01b3) ^ UInt64(byte)
        }
        return hex(a) + hex(b)
    }

    private static func hex(_ v: UInt64) -> String {
        let s = String(v, radix: 16)
        return String(repeating: "0", count: 16 - s.count) + s
    }
}
