/// One kind of sound output as the player's `SoundDevice` asks for it: whether the output the
/// device holds can be lent again for a format, and a new one when it cannot. The device holds
/// one output and asks the factory of the kind it wants, never the output's own type.
/// Threading: control thread only, like the device.
protocol AudioOutputFactory: AnyObject {
    /// Why making an output can fail (`Never` for a kind that always can).
    associatedtype Failure: Error
    /// Whether `output` is one this factory made and can play `format` from now on.
    func canReuse(_ output: AudioOutput, for format: AudioFormat) -> Bool
    /// A new output playing `fifo` (in its format) on `clock`, shown as `name` where outputs
    /// have names.
    func make(fifo: AudioFifo, clock: PlaybackClock, name: String) throws(Failure) -> AudioOutput
}
