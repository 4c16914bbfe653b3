/// The scroll wheel over the picture as whole steps of the keys it stands for: up and down
/// change the volume (↑ ↓), sideways, or up and down with Shift, seek (← →), as in Showtime and
/// Celluloid; up and down with Ctrl zoom the picture in and out (as in image viewers and
/// browsers). A wheel's notch is one step; a touchpad's glide, reported in pixels, one step
/// every `pixelsPerStep`. What is left over waits for more of the same direction.
/// Threading: a value type.
struct ScrollSteps {
    /// What the scroll moves, and how many steps (positive: louder, or later in the media).
    enum Step: Equatable {
        case volume(Int)
        case seek(Int)
        case zoom(Int)
    }

    /// How the desktop measures scrolling: wheel notches, or pixels (touchpads on Wayland).
    enum Unit { case wheel, pixels }

    static let pixelsPerStep = 24.0

    private var volume = 0.0
    private var seek = 0.0
    private var zoom = 0.0

    /// The steps a scroll of (`dx`, `dy`) makes (`dy` positive: down, towards the person),
    /// with Shift or Ctrl held or not; nil while it has not come to a whole step yet.
    mutating func scrolled(dx: Double, dy: Double, unit: Unit, shift: Bool, control: Bool = false) -> Step? {
        let scale = unit == .wheel ? 1 : 1 / Self.pixelsPerStep
        if control {
            seek = 0
            return Self.take(-dy * scale, from: &zoom, reset: &volume).map { .zoom($0) }
        }
        zoom = 0
        // Down with Shift is sideways to the right, as browsers and file managers take it.
        let sideways = (shift ? dy + dx : dx) * scale
        let upward = shift ? 0 : -dy * scale
        if abs(sideways) > abs(upward) {
            return Self.take(sideways, from: &seek, reset: &volume).map { .seek($0) }
        }
        return Self.take(upward, from: &volume, reset: &seek).map { .volume($0) }
    }

    /// Adds `amount` to `pending` (starting over when the direction turns) and takes out the
    /// whole steps; the other direction's remainder goes.
    private static func take(_ amount: Double, from pending: inout Double, reset other: inout Double) -> Int? {
        other = 0
        guard amount != 0 else { return nil }
        if pending != 0, (pending < 0) != (amount < 0) { pending = 0 }
        pending += amount
        let whole = pending.rounded(.towardZero)
        guard whole != 0 else { return nil }
        pending -= whole
        return Int(whole)
    }
}
