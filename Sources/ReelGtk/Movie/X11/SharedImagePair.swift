import CX11

/// Two `SharedImage`s of one size, written in turn: the one shown stays as it is (it is put
/// again as it is after GTK paints), the other is written once the server is done with it.
/// Threading: main thread only (owned by an `X11DirectPut`).
@MainActor
final class SharedImagePair {
    private let x11: X11Display
    private var images: [SharedImage] = []
    /// The image last put, and where.
    private(set) var shown: (image: SharedImage, place: WidgetPlace)?

    init(_ x11: X11Display) { self.x11 = x11 }

    func show(_ image: SharedImage, at place: WidgetPlace) { shown = (image, place) }

    /// Nothing of them is on screen any more (GTK draws the widget again).
    func forgetShown() { shown = nil }

    /// An image of the size the server is done with: the one not shown (waiting for the server
    /// when it has not yet copied it); made at a new size, for windows of `visual` and `depth`.
    func free(width: Int, height: Int, visual: UnsafeMutablePointer<Visual>, depth: Int32) -> SharedImage? {
        if images.first.map({ $0.width != width || $0.height != height }) == true { destroyAll() }
        if let image = images.first(where: { $0 !== shown?.image && !$0.isBusy }) { return image }
        if images.count < 2 {
            guard let image = SharedImage(x11, visual: visual, depth: depth, width: width, height: height) else { return nil }
            images.append(image)
            return image
        }
        x11.sync()
        return images.first { $0 !== shown?.image }
    }

    func destroyAll() {
        for image in images { image.destroy() }
        images = []
        shown = nil
    }

    isolated deinit {
        for image in images { image.destroy() }
    }
}
