import CPulse
import Foundation

/// The timing reports asked of the server for one stream. Automatic updates thin out to one
/// every 1.5 s; the clock wants them fresher, and at once when playback starts or underruns.
/// Answers arrive in order, so a report is trusted only once the request made at the last
/// start or flush is answered: older ones describe a stream that no longer exists.
/// Threading: used only with the stream's mainloop lock held (its callback runs there too).
final class TimingRequests {
    private(set) var lastRequest = HostTime(nanoseconds: 0)
    private var sent = 0
    private var answered = 0
    private var trustedFrom = 0
    /// Requests still in flight. Their callbacks point at `self`, so they are cancelled before
    /// the stream goes: libpulse itself cancels them only once the server has acknowledged the
    /// disconnect, by which time `self` may be gone.
    private var pending: [OpaquePointer] = []

    /// Whether the newest report answers the last start or flush.
    var isTrusted: Bool { answered >= trustedFrom }

    /// Asks for a fresh report.
    func request(_ stream: OpaquePointer) {
        lastRequest = .now
        pending.removeAll { op in
            guard pa_operation_get_state(op) != PA_OPERATION_RUNNING else { return false }
            pa_operation_unref(op)
            return true
        }
        guard let op = pa_stream_update_timing_info(stream, { _, _, userdata in
            Unmanaged<TimingRequests>.fromOpaque(userdata!).takeUnretainedValue().answered += 1
        }, Unmanaged.passUnretained(self).toOpaque()) else { return }
        sent += 1
        pending.append(op)
    }

    /// Asks for a fresh report and distrusts everything reported before it.
    func restart(_ stream: OpaquePointer) {
        request(stream)
        trustedFrom = sent
    }

    /// Cancels what is in flight (before the stream is disconnected).
    func cancelAll() {
        for op in pending {
            if pa_operation_get_state(op) == PA_OPERATION_RUNNING { pa_operation_cancel(op) }
            pa_operation_unref(op)
        }
        pending.removeAll()
    }
}

extension pa_timing_info {
    /// Seconds to add to what the server has read to get what is audible now: minus what
    /// still sits in the sink; while the stream really plays, plus the transport delay and the
    /// report's age (extrapolated only then: the sink may start late).
    func audibleCorrection(running: Bool) -> Double {
        var seconds = -Double(sink_usec) / 1e6
        if playing != 0 && running {
            var tv = timeval()
            gettimeofday(&tv, nil)
            let age = Double(tv.tv_sec - timestamp.tv_sec) + Double(tv.tv_usec - timestamp.tv_usec) / 1e6
            seconds += Double(transport_usec) / 1e6 + max(0, age)
        }
        return seconds
    }
}
