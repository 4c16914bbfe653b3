import CPulse

/// Boxes that carry Swift state through libpulse's C callbacks (`void *userdata`).
/// Threading: callbacks run on the PulseAudio mainloop thread with its lock held.
final class PulseWaitBox<Value>: @unchecked Sendable {
    // Safe: written and read only with the mainloop lock held.
    var value: Value
    var done = false
    let mainloop: OpaquePointer
    init(_ value: Value, mainloop: OpaquePointer) { self.value = value; self.mainloop = mainloop }
    var opaque: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }
    static func from(_ p: UnsafeMutableRawPointer?) -> PulseWaitBox<Value> {
        Unmanaged<PulseWaitBox<Value>>.fromOpaque(p!).takeUnretainedValue()
    }
    func finish() {
        done = true
        pa_threaded_mainloop_signal(mainloop, 0)
    }
}
