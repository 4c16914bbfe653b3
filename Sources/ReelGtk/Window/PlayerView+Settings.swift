import ReelEngine

/// The preferences the view follows (how the controls hide, the time labels, the stream
/// cache), applied at once when they change.
/// Threading: main thread only.
extension PlayerView {
    func applySettings() {
        visibility.displayDuration = settings.controlsDisplayDuration
        visibility.displayOnTap = settings.displayControlsOnTap
        visibility.neverHide = settings.dontHideControls || soundOnly
        visibility.hideWhilePaused = settings.hideControlsWhilePaused
        billboard.seconds = settings.messageDisplayDuration
        updateTimeObserver()
    }

    func settingChanged(_ key: SettingKey) {
        switch key {
        case .controlsDisplayDuration, .displayControlsOnTap, .dontHideControls, .hideControlsWhilePaused,
             .messageDisplayDuration:
            applySettings()
            applyVisibility()
        case .timeRefreshInterval, .showFrames:
            updateTimeObserver()
            controls.refreshLabels()
        case .showRemaining, .alwaysShowHours, .remainingMinusSign:
            controls.refreshLabels()
        case .streamCache, .streamCacheLimit:
            cachePreference.current = settings.streamCache
        default:
            break
        }
    }

    /// The time labels follow the engine's periodic observer: every refresh interval, or every
    /// picture when frames are shown.
    func updateTimeObserver() {
        var interval = settings.timeRefreshInterval
        if settings.timeOptions.showFrames, let fps = model.frameRate, fps > 0 {
            interval = min(interval, 1 / fps)
        }
        player.setTimeObserverInterval(interval)
    }
}
