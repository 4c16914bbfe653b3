/// The few buffers a subsurface cycles through: one on screen, one the compositor may still be
/// reading, one to write. A size change retires them all; those the compositor holds are kept
/// until it releases them (their listener points at them).
/// Threading: main thread only.
@MainActor
final class ShmBufferPool {
    /// As mpv's wlshm output: enough that a free one is there while the compositor holds two.
    static let capacity = 3
    private let connection: WaylandConnection
    private var buffers: [ShmBuffer] = []
    private var retired: [ShmBuffer] = []

    init(connection: WaylandConnection) { self.connection = connection }

    /// A free buffer of the size (made when fewer than `capacity` exist); nil while all are
    /// busy or when memory cannot be had.
    func free(width: Int, height: Int) -> ShmBuffer? {
        if let first = buffers.first, first.width != width || first.height != height { retireAll() }
        retired.removeAll { !$0.isBusy }
        if let buffer = buffers.first(where: { !$0.isBusy }) { return buffer }
        guard buffers.count < Self.capacity, let made = ShmBuffer(connection: connection, width: width, height: height) else { return nil }
        buffers.append(made)
        return made
    }

    /// Retires every buffer: a free one goes now, a busy one when released.
    func retireAll() {
        for buffer in buffers { buffer.retire() }
        retired += buffers.filter(\.isBusy)
        buffers.removeAll()
    }

    /// Destroys every buffer now (the surface showing them has gone).
    func destroyAll() {
        for buffer in buffers + retired { buffer.destroy() }
        buffers.removeAll()
        retired.removeAll()
    }
}
