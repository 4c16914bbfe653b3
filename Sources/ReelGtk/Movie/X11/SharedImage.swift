import CX11

/// One view's worth of memory shared with the X server and the `XImage` over it: 32-bit pixels
/// in the window's ZPixmap layout, which `X11PictureSink` accepts only when it is cairo's RGB24
/// (blue, green, red, pad in memory), so a picture is converted straight into what the server
/// copies. Busy from a put until the server has carried it out; written only while free.
/// Threading: main thread only (puts go on GDK's connection).
@MainActor
final class SharedImage {
    let width: Int, height: Int, stride: Int
    let pixels: UnsafeMutableRawPointer
    /// The picture's rectangle whose surroundings are black in it (nil: not known to be).
    var blackAround: VideoRect?
    private let x11: X11Display
    private let image: UnsafeMutablePointer<XImage>
    /// Xlib keeps a pointer to it in the image: it stays where it is for the image's life.
    private let segment: UnsafeMutablePointer<XShmSegmentInfo>
    /// The request that last put it (0: never).
    private var putSerial: UInt = 0
    private var destroyed = false

    /// An image of `width`×`height` for windows of `visual` and `depth`; nil when the server
    /// cannot share it (or the layout is not cairo's).
    init?(_ x11: X11Display, visual: UnsafeMutablePointer<Visual>, depth: Int32, width: Int, height: Int) {
        guard width > 0, height > 0 else { return nil }
        let segment = UnsafeMutablePointer<XShmSegmentInfo>.allocate(capacity: 1)
        segment.initialize(to: XShmSegmentInfo())
        var made: UnsafeMutablePointer<XImage>?
        let clean = x11.withoutErrors { made = reel_x11_shared_image(x11.display, visual, depth, Int32(width), Int32(height), segment) }
        guard let made else {
            segment.deallocate()
            return nil
        }
        let i = made.pointee
        guard clean, i.bits_per_pixel == 32, i.byte_order == LSBFirst, let data = i.data else {
            reel_x11_destroy_shared_image(x11.display, made, segment)
            segment.deallocate()
            return nil
        }
        self.x11 = x11
        self.image = made
        self.segment = segment
        self.width = width
        self.height = height
        stride = Int(i.bytes_per_line)
        pixels = UnsafeMutableRawPointer(data)
    }

    /// Put and not yet carried out by the server.
    var isBusy: Bool { putSerial != 0 && !x11.hasProcessed(putSerial) }

    /// Copies all of it to `window` at (`x`, `y`) (the caller flushes).
    func put(on window: Window, gc: GC, x: Int, y: Int) {
        putSerial = reel_x11_next_request(x11.display)
        XShmPutImage(x11.display, window, gc, image, 0, 0, Int32(x), Int32(y), UInt32(width), UInt32(height), 0)
    }

    func destroy() {
        guard !destroyed else { return }
        destroyed = true
        reel_x11_destroy_shared_image(x11.display, image, segment)
        segment.deallocate()
    }

    isolated deinit { destroy() }
}
