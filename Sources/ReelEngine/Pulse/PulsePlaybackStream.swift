import CPulse

/// A libpulse playback stream: opened corked with the buffer targets playback wants, its
/// callbacks handed on to closures, disconnected once. The C glue of one stream in one place.
/// Threading: open, use and disconnect with the connection's mainloop lock held; the closures
/// run on the mainloop thread with it held.
final class PulsePlaybackStream {
    let raw: OpaquePointer
    private let connection: PulseConnection
    /// The server wants up to this many bytes.
    var onWritable: ((Int) -> Void)?
    /// The stream ran dry.
    var onUnderflow: (() -> Void)?
    /// The sink started playing the stream.
    var onStarted: (() -> Void)?

    private init(raw: OpaquePointer, connection: PulseConnection) {
        self.raw = raw
        self.connection = connection
    }

    /// Opens a stream for `format` on `device` (the server's default when nil) and waits until
    /// it is ready (lock held). `prepare` sets the closures before the stream connects, so no
    /// callback is missed. Throws what the server said when it cannot.
    static func open(connection: PulseConnection, format: AudioFormat, name: String, device: String?,
                     targetLatency: Double, prepare: (PulsePlaybackStream) -> Void) throws(PlayerError) -> PulsePlaybackStream {
        var spec = pa_sample_spec(format: reel_pa_sample_float32ne(), rate: UInt32(format.sampleRate),
                                  channels: UInt8(format.channels))
        var map = PulseChannelMap.make(for: format)
        let bytesPerSecond = Double(format.sampleRate * format.bytesPerFrame)
        var attributes = pa_buffer_attr(
            maxlength: UInt32.max,
            tlength: UInt32(bytesPerSecond * targetLatency),
            prebuf: UInt32.max,
            minreq: UInt32(bytesPerSecond * 0.02),
            fragsize: UInt32.max)
        let props = pa_proplist_new()
        pa_proplist_sets(props, PA_PROP_MEDIA_ROLE, "video")
        pa_proplist_sets(props, PA_PROP_APPLICATION_ICON_NAME, "io.github.reel.Reel")
        let raw = pa_stream_new_with_proplist(connection.context, name, &spec, &map, props)
        pa_proplist_free(props)
        guard let raw else { throw refusal(connection) }
        let stream = PulsePlaybackStream(raw: raw, connection: connection)
        stream.installCallbacks()
        prepare(stream)
        let flags = pa_stream_flags_t(PA_STREAM_START_CORKED.rawValue
            | PA_STREAM_AUTO_TIMING_UPDATE.rawValue | PA_STREAM_ADJUST_LATENCY.rawValue)
        var volume = pa_cvolume()
        pa_cvolume_set(&volume, UInt32(format.channels), reel_pa_volume_norm())
        guard pa_stream_connect_playback(raw, device, &attributes, flags, &volume, nil) >= 0 else {
            let error = refusal(connection)
            stream.disconnect()
            throw error
        }
        while true {
            let state = pa_stream_get_state(raw)
            if state == PA_STREAM_READY { return stream }
            if reel_pa_stream_is_good(state) == 0 {
                let error = refusal(connection)
                stream.disconnect()
                throw error
            }
            pa_threaded_mainloop_wait(connection.mainloop)
        }
    }

    private static func refusal(_ connection: PulseConnection) -> PlayerError {
        .internalError("cannot open a sound stream: \(String(cString: pa_strerror(pa_context_errno(connection.context))))")
    }

    /// The C callbacks point at `self`; `disconnect` removes them before the stream goes.
    private func installCallbacks() {
        let me = Unmanaged.passUnretained(self).toOpaque()
        pa_stream_set_state_callback(raw, { _, userdata in
            pa_threaded_mainloop_signal(Unmanaged<PulsePlaybackStream>.fromOpaque(userdata!).takeUnretainedValue().connection.mainloop, 0)
        }, me)
        pa_stream_set_write_callback(raw, { _, bytes, userdata in
            Unmanaged<PulsePlaybackStream>.fromOpaque(userdata!).takeUnretainedValue().onWritable?(bytes)
        }, me)
        pa_stream_set_underflow_callback(raw, { _, userdata in
            Unmanaged<PulsePlaybackStream>.fromOpaque(userdata!).takeUnretainedValue().onUnderflow?()
        }, me)
        pa_stream_set_started_callback(raw, { _, userdata in
            Unmanaged<PulsePlaybackStream>.fromOpaque(userdata!).takeUnretainedValue().onStarted?()
        }, me)
    }

    /// Ends the stream (lock held): no callback runs after this.
    func disconnect() {
        pa_stream_set_write_callback(raw, nil, nil)
        pa_stream_set_state_callback(raw, nil, nil)
        pa_stream_set_underflow_callback(raw, nil, nil)
        pa_stream_set_started_callback(raw, nil, nil)
        onWritable = nil
        onUnderflow = nil
        onStarted = nil
        pa_stream_disconnect(raw)
        pa_stream_unref(raw)
    }
}
