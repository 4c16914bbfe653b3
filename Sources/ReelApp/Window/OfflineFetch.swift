import CGtk
import Foundation
import ReelEngine
import ReelGtk

/// The Open URL dialog's "download for offline": fetches the whole resource into the stream
/// cache on a thread of its own, showing progress in the dialog; then hands over to playback.
/// Threading: main thread only; the download runs on its own thread and reports back through
/// MainContext.
@MainActor
final class OfflineFetch {
    private let check: UnsafeMutablePointer<GtkWidget>
    private let bar: UnsafeMutablePointer<GtkWidget>
    private let errorLabel: UnsafeMutablePointer<GtkWidget>
    private let cache: StreamCacheOptions
    private var download: OfflineDownload?

    init(builder: UIBuilder, cache: StreamCacheOptions) {
        check = builder.widget("offline-check")
        bar = builder.widget("download-progress")
        errorLabel = builder.widget("download-error")
        self.cache = cache
    }

    var isWanted: Bool { gtk_check_button_get_active(check.cast()) != 0 }
    var isRunning: Bool { download != nil }

    func start(_ url: String, finished: @escaping @MainActor () -> Void) {
        gtk_widget_set_visible(errorLabel, 0)
        let job: OfflineDownload
        do { job = try OfflineDownload(url: url, options: cache) } catch {
            fail(error.message)
            return
        }
        download = job
        gtk_widget_set_visible(bar, 1)
        gtk_progress_bar_set_fraction(bar.cast(), 0)
        gtk_progress_bar_set_text(bar.cast(), tr("Connecting…"))
        let thread = Thread { [weak self] in
            let outcome: Result<String, PlayerError> = Result { () throws(PlayerError) in
                try job.run { progress in MainContext.async { self?.show(progress) } }
            }
            MainContext.async {
                guard let self, self.download === job else { return }
                self.download = nil
                switch outcome {
                case .success: finished()
                case .failure(let error): self.fail(error.message)
                }
            }
        }
        thread.name = "reel.offline-fetch"
        thread.start()
    }

    func cancel() {
        download?.cancel()
        download = nil
    }

    private func show(_ progress: DownloadProgress) {
        guard download != nil else { return }
        let mb = Double(progress.bytes) / 1_000_000
        if let total = progress.expected, total > 0 {
            gtk_progress_bar_set_fraction(bar.cast(), min(1, Double(progress.bytes) / Double(total)))
            // Translators: megabytes downloaded of the whole.
            gtk_progress_bar_set_text(bar.cast(), String(format: tr("%.1f of %.1f MB"), mb, Double(total) / 1_000_000))
        } else {
            gtk_progress_bar_pulse(bar.cast())
            gtk_progress_bar_set_text(bar.cast(), String(format: tr("%.1f MB"), mb))
        }
    }

    private func fail(_ message: String) {
        gtk_widget_set_visible(bar, 0)
        gtk_label_set_text(errorLabel.cast(), message)
        gtk_widget_set_visible(errorLabel, 1)
    }
}
