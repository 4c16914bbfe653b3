/// Picks the audio stream by the person's preferred languages. Threading: pure functions.
enum AudioChoice {
    /// The first audio stream in the first language of `languages` the media has, if any.
    static func byLanguage(_ info: MediaInfo, _ languages: [String]) -> Int? {
        let audio = info.streams.filter { $0.kind == .audio }
        for wanted in languages {
            let code = LanguageNames.normalized(wanted)
            if let stream = audio.first(where: { LanguageNames.normalized($0.language) == code }) { return stream.index }
        }
        return nil
    }
}
