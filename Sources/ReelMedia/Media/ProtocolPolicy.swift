/// Which FFmpeg protocols a source may use. FFmpeg can open dozens of protocols, and a media
/// file can name further URLs inside it (HLS playlists, concat lists, DASH manifests,
/// reference movies). Without a whitelist, a downloaded playlist could make Reel read local
/// files (`file:`), run through `pipe:`/`fd:`, or reach other hosts over `udp:`/`rtmp:`/`ftp:`.
///
/// - Local files: `file` only (plus `crypto` for AES-encrypted local HLS). A local file may
///   reference other local files, never the network.
/// - Remote http(s): `http`, `https`, and the layers they are built on (`tcp`, `tls`), plus
///   `crypto` for AES-128 HLS segments. Never `file`, so remote content cannot reach the disk.
///
/// The whitelist is inherited by every nested open FFmpeg makes for the same input.
/// Threading: pure values.
package enum ProtocolPolicy {
    package static let local = "file,crypto"
    package static let remote = "http,https,tcp,tls,crypto"

    package static func whitelist(for source: MediaSource) -> String {
        source.isRemote ? remote : local
    }
}
