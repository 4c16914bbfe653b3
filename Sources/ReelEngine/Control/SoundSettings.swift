/// The person's volume, muting, speed and loudness levelling, kept across items; and whether the lack of a sound
/// server was already said (once per player).
/// Threading: a value held by the control loop.
struct SoundSettings {
    var volume = 1.0
    var muted = false
    var speed = 1.0
    var levelling = false
    var warnedNoSound = false
}
