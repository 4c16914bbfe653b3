import CPulse
import Foundation

/// The process's connection to a sound server (PulseAudio, or PipeWire's Pulse server), one per
/// server address, on libpulse's threaded mainloop. Connected lazily; if the server goes away,
/// the next `shared(server:)` call connects again.
/// Threading: any thread; libpulse calls are made with the mainloop lock held (`locked`).
final class PulseConnection: @unchecked Sendable {
    // Safe: libpulse objects are only touched with the mainloop lock held.
    let mainloop: OpaquePointer
    let context: OpaquePointer
    /// The default sink's native format, so streams need no second resampling in the server.
    private(set) var sinkFormat: AudioFormat

    /// One connection per server address ("" for libpulse's own choice).
    private static let cache = Locked<[String: PulseConnection]>([:])

    /// The shared connection to `server` (libpulse's address form, such as `unix:/path`; nil:
    /// the one libpulse finds, from `PULSE_SERVER` or the session), or the reason none answers.
    static func shared(server: String? = nil) -> Result<PulseConnection, PlayerError> {
        cache.withLock { cached in
            if let c = cached[server ?? ""], c.isGood { return .success(c) }
            cached[server ?? ""] = nil
            do throws(PlayerError) {
                let connection = try connect(server: server)
                cached[server ?? ""] = connection
                return .success(connection)
            } catch {
                return .failure(error)
            }
        }
    }

    /// Connects, or frees everything and throws. The object exists only once connected, so
    /// its deinit never meets half-built state.
    private static func connect(server: String?) throws(PlayerError) -> PulseConnection {
        guard let loop = pa_threaded_mainloop_new() else { throw .internalError("pa_threaded_mainloop_new") }
        guard let ctx = pa_context_new(pa_threaded_mainloop_get_api(loop), "Reel") else {
            pa_threaded_mainloop_free(loop)
            throw .internalError("pa_context_new")
        }
        func giveUp() -> PlayerError {
            let reason = String(cString: pa_strerror(pa_context_errno(ctx)))
            pa_threaded_mainloop_stop(loop)
            pa_context_disconnect(ctx)
            pa_context_unref(ctx)
            pa_threaded_mainloop_free(loop)
            return .internalError(reason)
        }
        pa_context_set_state_callback(ctx, { _, userdata in
            pa_threaded_mainloop_signal(OpaquePointer(userdata), 0)
        }, UnsafeMutableRawPointer(loop))
        guard pa_context_connect(ctx, server, PA_CONTEXT_NOAUTOSPAWN, nil) >= 0,
              pa_threaded_mainloop_start(loop) >= 0 else { throw giveUp() }
        pa_threaded_mainloop_lock(loop)
        while true {
            let state = pa_context_get_state(ctx)
            if state == PA_CONTEXT_READY { break }
            if reel_pa_context_is_good(state) == 0 {
                pa_threaded_mainloop_unlock(loop)
                throw giveUp()
            }
            pa_threaded_mainloop_wait(loop)
        }
        pa_threaded_mainloop_unlock(loop)
        let connection = PulseConnection(mainloop: loop, context: ctx)
        connection.sinkFormat = connection.querySinkFormat() ?? .fallback
        return connection
    }

    private init(mainloop: OpaquePointer, context: OpaquePointer) {
        self.mainloop = mainloop
        self.context = context
        sinkFormat = .fallback
    }

    deinit {
        pa_threaded_mainloop_lock(mainloop)
        pa_context_disconnect(context)
        pa_context_unref(context)
        pa_threaded_mainloop_unlock(mainloop)
        pa_threaded_mainloop_stop(mainloop)
        pa_threaded_mainloop_free(mainloop)
    }

    var isGood: Bool {
        locked { reel_pa_context_is_good(pa_context_get_state(context)) != 0 }
    }

    func locked<R>(_ body: () throws -> R) rethrows -> R {
        pa_threaded_mainloop_lock(mainloop)
        defer { pa_threaded_mainloop_unlock(mainloop) }
        return try body()
    }

    /// Waits (lock held) until `operation` completes, then releases it.
    func wait(for operation: OpaquePointer?) {
        guard let operation else { return }
        while pa_operation_get_state(operation) == PA_OPERATION_RUNNING {
            pa_threaded_mainloop_wait(mainloop)
        }
        pa_operation_unref(operation)
    }

    /// Fire-and-forget: the operation completes on its own.
    func release(_ operation: OpaquePointer?) {
        if let operation { pa_operation_unref(operation) }
    }

    /// The native format of `device` (a sink's name), or of the default sink. A player told to
    /// play on another sink mixes for that sink's speakers, not the default's.
    func sinkFormat(of device: String?) -> AudioFormat {
        guard let device else { return sinkFormat }
        return querySinkFormat(device) ?? sinkFormat
    }

    private func querySinkFormat(_ name: String = "@DEFAULT_SINK@") -> AudioFormat? {
        let box = PulseWaitBox<AudioFormat?>(nil, mainloop: mainloop)
        locked {
            let op = pa_context_get_sink_info_by_name(context, name, { _, info, eol, userdata in
                let box = PulseWaitBox<AudioFormat?>.from(userdata)
                if eol == 0, let info {
                    box.value = AudioFormat(sampleRate: Int(info.pointee.sample_spec.rate),
                                            channels: Int(info.pointee.sample_spec.channels))
                }
                if eol != 0 || info == nil { box.finish() } else { pa_threaded_mainloop_signal(box.mainloop, 0) }
            }, box.opaque)
            wait(for: op)
        }
        guard let format = box.value, format.sampleRate >= 8000, format.channels >= 1 else { return nil }
        return format
    }
}
