import ReelGtk

/// The preferences a playback session follows are these settings' own (GSettings).
/// Threading: main thread only, like `PlayerSettings`.
extension PlayerSettings: SessionSettings {}
