import CGtk
import Foundation
import ReelEngine

/// The hover preview: while the pointer is over the scrubber (or drags it), a small card above
/// it at the pointer's x shows the picture there, the chapter and the time, as the scrubber
/// maps that x to a time (`ControlsOverlay.time(atX:)`); while the scrubber is held, at the
/// thumb, with the drag's speed when it is slowed ("Half-speed scrubbing"). Pictures come from the engine's
/// `ThumbnailProvider`, one per media opened, shaped as the movie is (the person's crop,
/// aspect, turns and mirror; not zoom or pan); until one arrives the card keeps its size with
/// an empty frame, so it never jumps. The card takes no input and lives only while the
/// controls are shown, so the controls' own show-and-hide logic never sees it.
/// Threading: main thread only; thumbnails hop here from the provider's thread.
@MainActor
final class ScrubberPreview {
    let card: UnsafeMutablePointer<GtkWidget>
    private let picture: UnsafeMutablePointer<GtkWidget>
    private let timeLabel: UnsafeMutablePointer<GtkWidget>
    private let chapterLabel: UnsafeMutablePointer<GtkWidget>
    private let messageLabel: UnsafeMutablePointer<GtkWidget>
    private let speedLabel: UnsafeMutablePointer<GtkWidget>
    private let builder: UIBuilder
    private let overlay: UnsafeMutablePointer<GtkWidget>
    private let controls: ControlsOverlay
    private let chapters: ChapterMarks
    private let settings: PlayerSettings
    private let relay = Relay()

    private var provider: ThumbnailProvider?
    /// Which provider a delivered picture comes from: answers of an earlier media are dropped.
    private var generation = 0
    private var video: StreamInfo?
    private var frameRate: Double?
    private var controlsShown = false
    /// The pointer's x in the overlay's coordinates while the card shows, and its time.
    private var anchorX = 0.0
    private var hoverTime: Double?
    private var thumbnailSize: ThumbnailSize = .standard
    /// The size the picture's frame was last laid out for (nil: lay it out again).
    private var sizedFor: ThumbnailSize?
    /// The view's size the card was last placed in, and whether a look at the pointer is due.
    private var placedIn: (width: Int, height: Int)?
    private var pointerLookPending = false

    /// The person's shape of the picture (the player view passes the model's on): pictures
    /// come in it, and a change while the card shows asks for the picture again at once, so
    /// the card never keeps the old shape.
    var transform = PictureTransform.identity {
        didSet {
            guard transform != oldValue else { return }
            // The picture held has the old shape: an empty frame of the new one until it comes.
            gtk_picture_set_paintable(picture.cast(), nil)
            sizedFor = nil
            updateSize()
            guard let hoverTime, gtk_widget_get_visible(card) != 0 else { return }
            gtk_widget_queue_allocate(overlay)
            provider?.request(at: hoverTime, size: thumbnailSize, transform: transform)
        }
    }

    /// The card shows the pointer's time (nil: it is gone, or follows the held scrubber).
    var hovered: (@MainActor (Double?) -> Void)?

    /// The gap between the card and the controls bar.
    static let gap = 6.0

    /// Deliveries cross from the provider's thread through this; `preview` is set once, on the
    /// main thread, and read only in blocks that run there.
    private final class Relay: @unchecked Sendable {
        // Safe: written once on the main thread before any delivery, then read only on it.
        weak var preview: ScrubberPreview?
    }

    init(overlay: UnsafeMutablePointer<GtkWidget>, controls: ControlsOverlay, chapters: ChapterMarks, settings: PlayerSettings) {
        builder = UIBuilder(.scrubberPreview)
        card = builder.widget("preview-card")
        picture = builder.widget("preview-picture")
        timeLabel = builder.widget("preview-time")
        chapterLabel = builder.widget("preview-chapter")
        messageLabel = builder.widget("preview-message")
        speedLabel = builder.widget("preview-speed")
        self.overlay = overlay
        self.controls = controls
        self.chapters = chapters
        self.settings = settings
        relay.preview = self
        // Just below the controls (player-view.ui's order), over the picture, the subtitles and
        // the billboard; it is placed above the bar, so the two never overlap.
        gtk_overlay_add_overlay(overlay.cast(), card)
        gtk_widget_insert_before(card, overlay, controls.revealer)
        Signal.connectChildPosition(overlay.raw) { [weak self] child, allocation in
            guard let self, child == self.card, let allocation else { return false }
            self.place(allocation)
            return true
        }
        wirePointer()
        controls.scrubMoved = { [weak self] in self?.showScrub() }
    }

    // MARK: Media

    /// New media: a provider for it, and the card's picture sized for its video.
    func mediaLoaded(_ info: MediaInfo) {
        mediaClosed()
        video = info.videoStream
        frameRate = info.videoStream?.frameRate
        chapters.show(info.chapters, duration: info.duration)
        guard let source = try? MediaSource(parsing: info.source) else { return }
        generation += 1
        let generation = self.generation
        let relay = self.relay
        provider = ThumbnailProvider(source: source, size: thumbnailSize) { result in
            MainContext.async { relay.preview?.received(result, generation: generation) }
        }
        // Known at once, without asking the provider: the card says so from the first hover.
        if case .unavailable(let reason) = source.previewAvailability {
            gtk_widget_set_visible(picture, 0)
            setMessage(reason)
        } else {
            gtk_widget_set_visible(picture, video == nil ? 0 : 1)
            setMessage(nil)
        }
        sizedFor = nil
        updateSize()
    }

    /// The media closed or failed (or another is being opened): no card, no marks.
    func mediaClosed() {
        provider?.close()
        provider = nil
        generation += 1
        video = nil
        frameRate = nil
        chapters.clear()
        hide()
        gtk_picture_set_paintable(picture.cast(), nil)
        gtk_widget_set_visible(picture, 0)
        setMessage(nil)
    }

    /// The controls were shown or hidden; the card never outlives them.
    func setControlsShown(_ shown: Bool) {
        controlsShown = shown
        if !shown { hide() }
    }

    // MARK: The pointer

    private func wirePointer() {
        let motion = gtk_event_controller_motion_new()!
        Signal.connectPoint(motion.raw, "enter") { [weak self] x, y in self?.pointerMoved(barX: x, barY: y) }
        Signal.connectPoint(motion.raw, "motion") { [weak self] x, y in self?.pointerMoved(barX: x, barY: y) }
        Signal.connect(motion.raw, "leave") { [weak self] in
            guard let self, !self.controls.isScrubbing else { return }
            self.hide()
        }
        gtk_widget_add_controller(controls.bar, motion.cast())
    }

    /// The scrubber was let go (or a menu of the bar closed). A drag may end with the pointer
    /// off the scrubber, where no further motion reaches the bar: look where it is now.
    func scrubberReleased() {
        guard !controls.isScrubbing else { return }
        if let point = pointerOnBar() { pointerMoved(barX: point.x, barY: point.y) } else { hide() }
    }

    private func pointerMoved(barX: Double, barY: Double) {
        if controls.isScrubbing { return showScrub() }
        var sx = 0.0, sy = 0.0
        gtk_widget_translate_coordinates(controls.bar, controls.scrubber, barX, barY, &sx, &sy)
        // The same band around the scrubber that takes presses (ControlsOverlay's drag).
        let over = controls.scrubberBand(containsX: sx, y: sy)
        guard controlsShown, let duration = controls.duration, duration > 0, over || controls.isScrubbing else {
            hide()
            return
        }
        let width = Double(gtk_widget_get_width(controls.scrubber))
        let x = min(max(sx, 0), width)
        var ox = 0.0, oy = 0.0
        gtk_widget_translate_coordinates(controls.scrubber, overlay, x, 0, &ox, &oy)
        setSpeed(.full)
        let time = controls.time(atX: x)
        show(time: time, anchorX: ox)
        hovered?(time)
    }

    /// While the scrubber is held the card stands over the thumb and shows its time: with a
    /// slowed drag the thumb is not under the pointer.
    private func showScrub() {
        guard controlsShown, let (time, x, speed) = controls.scrubPosition else { return hide() }
        var ox = 0.0, oy = 0.0
        gtk_widget_translate_coordinates(controls.scrubber, overlay, x, 0, &ox, &oy)
        setSpeed(speed)
        show(time: time, anchorX: ox)
        hovered?(nil)
    }

    private func setSpeed(_ speed: FineScrubbing.Speed) {
        let text: String? = switch speed {
        case .full: nil
        // Translators: said above the scrubber while a drag moves at half the usual speed
        // (the pointer was moved away from the scrubber to slow it down).
        case .half: tr("Half-speed scrubbing")
        case .quarter: tr("Quarter-speed scrubbing")
        case .fine: tr("Fine scrubbing")
        }
        gtk_label_set_text(speedLabel.cast(), text ?? "")
        gtk_widget_set_visible(speedLabel, text == nil ? 0 : 1)
    }

    /// The pointer's position over the controls bar, when it is there.
    private func pointerOnBar() -> (x: Double, y: Double)? {
        guard let native = gtk_widget_get_native(controls.bar), let surface = gtk_native_get_surface(native),
              let display = gtk_widget_get_display(controls.bar), let seat = gdk_display_get_default_seat(display),
              let pointer = gdk_seat_get_pointer(seat) else { return nil }
        var sx = 0.0, sy = 0.0
        guard gdk_surface_get_device_position(surface, pointer, &sx, &sy, nil) != 0 else { return nil }
        // Surface coordinates are the native widget's, offset by its surface transform.
        var nx = 0.0, ny = 0.0
        gtk_native_get_surface_transform(native, &nx, &ny)
        var bx = 0.0, by = 0.0
        guard gtk_widget_translate_coordinates(native.cast(), controls.bar, sx - nx, sy - ny, &bx, &by) != 0,
              bx >= 0, by >= 0, bx <= Double(gtk_widget_get_width(controls.bar)),
              by <= Double(gtk_widget_get_height(controls.bar)) else { return nil }
        return (bx, by)
    }

    // MARK: The card

    private func show(time: Double, anchorX: Double) {
        self.anchorX = anchorX
        let changed = hoverTime.map { abs($0 - time) > 1e-9 } ?? true
        hoverTime = time
        updateSize()
        let text = TimeText.elapsed(time, reference: controls.duration, frameRate: frameRate, options: settings.timeOptions)
        gtk_label_set_text(timeLabel.cast(), text)
        let chapter = chapters.title(at: time)
        gtk_label_set_text(chapterLabel.cast(), chapter ?? "")
        gtk_widget_set_visible(chapterLabel, chapter == nil ? 0 : 1)
        updateAccessibleName()
        if gtk_widget_get_visible(card) == 0 {
            gtk_widget_set_visible(card, 1)
        }
        gtk_widget_queue_allocate(overlay)
        if changed { provider?.request(at: time, size: thumbnailSize, transform: transform) }
    }

    private func hide() {
        hovered?(nil)
        hoverTime = nil
        setSpeed(.full)
        if gtk_widget_get_visible(card) != 0 { gtk_widget_set_visible(card, 0) }
    }

    private func received(_ result: ThumbnailResult, generation: Int) {
        guard generation == self.generation, hoverTime != nil, result.transform == transform else { return }
        switch result.outcome {
        case .success(let thumbnail):
            setMessage(nil)
            gtk_widget_set_visible(picture, 1)
            let texture = Self.texture(thumbnail)
            gtk_picture_set_paintable(picture.cast(), texture)
            g_object_unref(texture.raw)
        case .failure(.unavailable(let reason)):
            gtk_widget_set_visible(picture, 0)
            setMessage(reason)
        case .failure(.noPicture):
            gtk_widget_set_visible(picture, 0)
            setMessage(nil)
        case .failure(.closed):
            break
        case .failure(.unreadable):
            gtk_picture_set_paintable(picture.cast(), nil)
            setMessage(nil)
        }
        gtk_widget_queue_allocate(overlay)
    }

    private func setMessage(_ text: String?) {
        gtk_label_set_text(messageLabel.cast(), text ?? "")
        gtk_widget_set_visible(messageLabel, text == nil ? 0 : 1)
        updateAccessibleName()
    }

    /// "Preview at 1:05, Chapter title — No preview while streaming": everything the card says.
    private func updateAccessibleName() {
        guard hoverTime != nil else { return }
        // Translators: %@ is the time under the pointer, such as 1:05.
        var name = String(format: tr("Preview at %@"), String(cString: gtk_label_get_text(timeLabel.cast())))
        if gtk_widget_get_visible(speedLabel) != 0 { name += ", " + String(cString: gtk_label_get_text(speedLabel.cast())) }
        if gtk_widget_get_visible(chapterLabel) != 0 { name += ", " + String(cString: gtk_label_get_text(chapterLabel.cast())) }
        if gtk_widget_get_visible(messageLabel) != 0 { name += " — " + String(cString: gtk_label_get_text(messageLabel.cast())) }
        Accessibility.setLabel(card, name)
    }

    /// Pictures a fifth of the view's height (72 to 160 pixels: readable in a small window,
    /// modest in fullscreen), never wider than a 16:9 card of that height by a quarter; in the
    /// picture's shape (a turned portrait clip gives a portrait card of the same height).
    private func updateSize() {
        let height = Int(min(160, max(72, (Double(gtk_widget_get_height(overlay)) / 5).rounded())))
        thumbnailSize = ThumbnailSize.fitting(width: Int((Double(height) * 16 / 9 * 1.25).rounded()), height: height)
        guard thumbnailSize != sizedFor, let video else { return }
        sizedFor = thumbnailSize
        let pixels = thumbnailSize.pixels(for: video, transform: transform)
        gtk_widget_set_size_request(picture, gint(pixels.width), gint(pixels.height))
    }

    /// Centred on the pointer, above the controls bar, inside the view.
    private func place(_ allocation: UnsafeMutablePointer<GdkRectangle>) {
        var width: gint = 0, height: gint = 0
        gtk_widget_measure(card, GTK_ORIENTATION_HORIZONTAL, -1, nil, &width, nil, nil)
        gtk_widget_measure(card, GTK_ORIENTATION_VERTICAL, width, nil, &height, nil, nil)
        var barX = 0.0, barY = 0.0
        gtk_widget_translate_coordinates(controls.bar, overlay, 0, 0, &barX, &barY)
        let viewWidth = Double(gtk_widget_get_width(overlay))
        let x = Self.left(anchor: anchorX, cardWidth: Double(width), viewWidth: viewWidth)
        allocation.pointee.x = gint(x.rounded())
        allocation.pointee.y = gint(max(0, barY - Self.gap - Double(height)).rounded())
        allocation.pointee.width = width
        allocation.pointee.height = height
        let size = (width: Int(gtk_widget_get_width(overlay)), height: Int(gtk_widget_get_height(overlay)))
        if let placedIn, placedIn != size { lookAtPointerAfterLayout() }
        placedIn = size
    }

    /// The view changed size under a card (fullscreen, a resize by the keyboard): the scrubber
    /// has moved, and with the pointer still, nothing tells the bar it left (GTK 4.8 sends no
    /// leave for a widget that moves away). Once the layout is done, the card goes where the
    /// pointer now is on the scrubber, or away.
    private func lookAtPointerAfterLayout() {
        guard !pointerLookPending, !controls.isScrubbing else { return }
        pointerLookPending = true
        MainContext.later { [weak self] in
            guard let self else { return }
            self.pointerLookPending = false
            guard gtk_widget_get_visible(self.card) != 0, !self.controls.isScrubbing else { return }
            self.scrubberReleased()
        }
    }

    /// The card's left edge: centred on `anchor`, then moved inside the view, `margin` from its
    /// sides (a view narrower than the card gets it at its left edge).
    nonisolated static func left(anchor: Double, cardWidth: Double, viewWidth: Double, margin: Double = 6) -> Double {
        let centred = anchor - cardWidth / 2
        return max(margin, min(centred, viewWidth - margin - cardWidth))
    }

    private static func texture(_ thumbnail: Thumbnail) -> OpaquePointer {
        let bytes = thumbnail.pixels.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
        defer { g_bytes_unref(bytes) }
        return gdk_memory_texture_new(gint(thumbnail.width), gint(thumbnail.height), GDK_MEMORY_R8G8B8A8,
                                      bytes, gsize(thumbnail.bytesPerRow))
    }
}
