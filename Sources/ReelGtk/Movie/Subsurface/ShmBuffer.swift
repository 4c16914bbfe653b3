import CWayland
import Glibc

/// One picture's worth of shared memory and the `wl_buffer` over it: XRGB8888 rows, which are
/// cairo's RGB24 and what `FrameScaler` writes, so a picture is converted straight into what the
/// compositor reads. Busy from its commit until the compositor releases it; written only while
/// free.
/// Threading: main thread only (its release arrives on Reel's Wayland queue, dispatched there).
@MainActor
final class ShmBuffer {
    let width: Int, height: Int, stride: Int
    let pixels: UnsafeMutableRawPointer
    private let buffer: OpaquePointer
    private let byteCount: Int
    /// Attached and committed, not yet released by the compositor.
    private(set) var isBusy = false
    /// Destroyed when released (the size changed while the compositor still held it).
    private var isRetired = false
    /// The picture's rectangle whose surroundings are black in it (nil: not known to be).
    var blackAround: VideoRect?

    /// Threading: read only (a C listener with one function, kept for the process's life).
    private nonisolated(unsafe) static let listener: UnsafeMutablePointer<wl_buffer_listener> = {
        let listener = UnsafeMutablePointer<wl_buffer_listener>.allocate(capacity: 1)
        listener.initialize(to: wl_buffer_listener(release: { data, _ in
            guard let data else { return }
            let buffer = Unmanaged<ShmBuffer>.fromOpaque(data).takeUnretainedValue()
            MainActor.assumeIsolated { buffer.released() }
        }))
        return listener
    }()

    /// A buffer of `width`×`height` pixels; nil when the memory or the buffer cannot be had.
    init?(connection: WaylandConnection, width: Int, height: Int) {
        let stride = width * 4, byteCount = stride * height
        guard width > 0, height > 0 else { return nil }
        let fd = reel_wl_memory_file("reel-picture")
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        guard ftruncate(fd, off_t(byteCount)) == 0,
              let mapped = mmap(nil, byteCount, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0), mapped != MAP_FAILED else { return nil }
        guard let pool = wl_shm_create_pool(connection.shm, fd, Int32(byteCount)) else {
            munmap(mapped, byteCount)
            return nil
        }
        let buffer = wl_shm_pool_create_buffer(pool, 0, Int32(width), Int32(height), Int32(stride),
                                               WL_SHM_FORMAT_XRGB8888.rawValue)
        // The buffer keeps the pool's memory; the pool itself is not needed again.
        wl_shm_pool_destroy(pool)
        guard let buffer else {
            munmap(mapped, byteCount)
            return nil
        }
        self.width = width
        self.height = height
        self.stride = stride
        self.byteCount = byteCount
        self.pixels = mapped
        self.buffer = buffer
        wl_buffer_add_listener(buffer, Self.listener, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Attaches it to `surface` (the caller commits): busy until released.
    func attach(to surface: OpaquePointer) {
        wl_surface_attach(surface, buffer, 0, 0)
        isBusy = true
    }

    /// No longer wanted: destroyed now if free, or when the compositor releases it.
    func retire() {
        if isBusy { isRetired = true } else { destroy() }
    }

    private var destroyed = false

    /// Destroys it whatever the compositor holds (its surface is going).
    func destroy() {
        guard !destroyed else { return }
        destroyed = true
        wl_buffer_destroy(buffer)
        munmap(pixels, byteCount)
    }

    private func released() {
        isBusy = false
        if isRetired { destroy() }
    }

    isolated deinit { destroy() }
}
