/// How much of the levelled sound is heard, sample by sample, while loudness levelling is
/// switched on or off during play: a linear cross-fade between the sound as decoded and the
/// levelled sound (both of the same media time), so a switch is neither a gap nor a step in
/// level (a click). A switch back before the fade ends turns it round from where it is.
/// Threading: a value, used by the audio decoder thread.
struct LevellingCrossFade: Equatable {
    /// Samples from all of one to all of the other.
    let length: Int
    /// 0: only the decoded sound; `length`: only the levelled sound.
    private(set) var position: Int
    /// Levelling wanted: the fade moves towards the levelled sound.
    var levelled: Bool

    /// 50 ms at `rate`: long enough to be heard as a change of level rather than a click,
    /// short enough to follow the switch at once.
    static let seconds = 0.05

    init(rate: Int, levelled: Bool) {
        length = max(1, Int(Double(rate) * Self.seconds))
        self.levelled = levelled
        position = levelled ? length : 0
    }

    /// The levelled sound's share of the next sample, moving the fade on by one.
    mutating func nextWeight() -> Float {
        if levelled, position < length { position += 1 } else if !levelled, position > 0 { position -= 1 }
        return Float(position) / Float(length)
    }

    /// Only the decoded sound is heard and no switch is under way: the filter can go.
    var isDry: Bool { !levelled && position == 0 }
    /// Only the levelled sound is heard.
    var isWet: Bool { levelled && position == length }
}
