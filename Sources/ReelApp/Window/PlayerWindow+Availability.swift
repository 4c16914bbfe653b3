import CGtk
import ReelGtk

/// The window's actions enabled as `ActionAvailability`'s table says, each time what it reads
/// changes: the model (WindowBinding, through `follow`), the queue, fullscreen, the info card.
/// Threading: main thread only.
extension PlayerWindow {
    func updateActionAvailability() {
        let facts = ActionAvailability.Facts(model: playerView.model, canGoNext: queue.canGoNext, canGoPrevious: queue.canGoPrevious,
                                             isFullscreen: isFullscreen, infoCardShown: infoCardShown,
                                             blackBarsFound: picture?.barsFound != nil, queueItems: queue.queue.items.count)
        for (name, enabled) in ActionAvailability.enabled(facts) {
            // The window's own actions and the subtitle controller's, all in the window's map.
            guard let action = g_action_map_lookup_action(OpaquePointer(window), name) else { continue }
            g_simple_action_set_enabled(action, enabled ? 1 : 0)
        }
    }

    /// Whether the window's action `name` is enabled now.
    func canAct(_ name: String) -> Bool {
        g_action_group_get_action_enabled(OpaquePointer(window), name) != 0
    }
}
