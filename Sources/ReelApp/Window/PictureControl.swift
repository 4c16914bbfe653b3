import CGtk
import Foundation
import ReelEngine
import ReelGtk

/// The picture's shape from the window: turns, mirror, aspect, zoom, pan, zoom to fill, the
/// black bars and a reset, as actions (keys, the Picture menu, D-Bus) that change the model's
/// `shape`, say what they did on the billboard, and keep the file's transform in
/// `PictureMemory`. At each file it starts from what was kept for that file, and looks for
/// black bars in the background (local files), offering "Crop Black Bars" once it has found some.
/// Threading: main thread only.
@MainActor
final class PictureControl {
    private unowned let view: PlayerView
    private let memory: PictureMemory
    /// The key a file's shape is kept under (the resume history's, taken at its open).
    private let keyFor: (MediaSource) -> String?
    private var key: String?
    private var scan: BlackBarScan?
    /// The crop the scan offers for what is open (nil: none found, or not looked for yet).
    private(set) var barsFound: PixelRect? {
        didSet { if barsFound != oldValue { offersChanged?() } }
    }
    /// Called when what the menu can offer changes (the bars were found, or went with the file).
    var offersChanged: (() -> Void)?
    private var aspectAction: OpaquePointer?
    private var toggles: [String: OpaquePointer] = [:]
    private var following: ObservationToken?

    init(view: PlayerView, memory: PictureMemory = PictureMemory(),
         key: @escaping (MediaSource) -> String? = ResumeHistory.key(for:)) {
        self.view = view
        self.memory = memory
        keyFor = key
        following = view.model.observe { [weak self] change in self?.follow(change) }
    }

    private var shape: PictureShape {
        get { view.model.shape }
        set { view.model.shape = newValue }
    }

    /// The actions with a state: the aspect's radio items and the check items.
    func installActions(_ group: UnsafeMutableRawPointer) {
        aspectAction = Actions.addStringChoice(group, "aspect", initial: AspectOverride.auto.rawValue) { [weak self] value in
            if let aspect = AspectOverride(rawValue: value) { self?.setAspect(aspect) }
        }
        toggles["mirror"] = Actions.addToggle(group, "mirror", initial: false) { [weak self] in self?.toggleMirror() }
        toggles["zoom-to-fill"] = Actions.addToggle(group, "zoom-to-fill", initial: false) { [weak self] in self?.toggleFill() }
        toggles["crop-black-bars"] = Actions.addToggle(group, "crop-black-bars", initial: false) { [weak self] in
            self?.toggleBlackBars()
        }
        Actions.add(group, "picture-menu") {}
        Actions.add(group, "reset-picture") { [weak self] in self?.reset() }
    }

    // MARK: Steps

    func rotate(by quarters: Int) {
        change { $0.transform = $0.transform.turned(by: quarters) }
        // Translators: the picture's rotation, set by the person, in degrees clockwise.
        view.billboard.show(String(format: tr("Rotation %ld°"), shape.transform.turns * 90), icon: "object-rotate-right-symbolic")
    }

    func toggleMirror() {
        change { $0.transform.flipped.toggle() }
        view.billboard.show(shape.transform.flipped ? tr("Mirrored") : tr("Not mirrored"))
    }

    func setAspect(_ aspect: AspectOverride) {
        change { $0.transform.aspect = aspect }
        view.billboard.show(Self.aspectText(aspect))
    }

    func cycleAspect() { setAspect(shape.transform.aspect.next) }

    func zoom(by steps: Int) {
        shape = shape.zoomed(by: Double(steps))
        // Translators: the picture's magnification over its fitted size, in percent.
        view.billboard.show(String(format: tr("Zoom %ld %%"), Int((exp2(shape.zoom) * 100).rounded())))
    }

    /// Moves the picture the way the arrow points (Alt+←: the picture moves right, showing more
    /// of its left, as mpv's keys do).
    func pan(x: Int, y: Int) { shape = shape.panned(x: Double(x), y: Double(y)) }

    func toggleFill() {
        shape.fill.toggle()
        view.billboard.show(shape.fill ? tr("Zoom to fill") : tr("Fit to window"))
    }

    func toggleBlackBars() {
        if shape.transform.crop != nil {
            change { $0.transform.crop = nil }
            view.billboard.show(tr("Black bars shown"))
        } else if let barsFound {
            change { $0.transform.crop = barsFound }
            view.billboard.show(tr("Black bars cropped"))
        }
    }

    /// Everything back as the file has it: no turns, mirror, crop, aspect, zoom or pan.
    func reset() {
        change { $0 = .plain }
        view.billboard.show(tr("Picture reset"))
    }

    /// Applies a change to the shape, and keeps the transform part for the file.
    private func change(_ body: (inout PictureShape) -> Void) {
        var next = shape
        body(&next)
        shape = next
        if let key, let source = view.model.source { memory.record(next.transform, key: key, source: source.displayName) }
    }

    static func aspectText(_ aspect: AspectOverride) -> String {
        // Translators: %@ is an aspect ratio such as 16:9.
        aspect == .auto ? tr("Aspect ratio: original") : String(format: tr("Aspect ratio: %@"), aspect.rawValue)
    }

    // MARK: Following the model

    private func follow(_ change: PlayerModel.Change) {
        if case .loaded(let info) = change.moment { mediaLoaded(info) }
        if change.contains(.state), !view.model.hasMedia, view.model.state != .loading, view.model.state != .suspended {
            forget()
        }
        if change.contains(.shape) { showState() }
    }

    private func mediaLoaded(_ info: MediaInfo) {
        forget()
        guard let source = view.model.source, info.videoStream != nil else { return }
        key = keyFor(source)
        shape = PictureShape(transform: key.map { memory.transform(forKey: $0) } ?? .identity)
        if case .file = source.location, let duration = info.duration {
            scan = BlackBarScan(source: source, duration: duration) { found in
                MainContext.async { [weak self] in self?.barsFound = found }
            }
        }
    }

    private func forget() {
        scan?.cancel()
        scan = nil
        key = nil
        barsFound = nil
        if shape != .plain { shape = .plain }
    }

    /// The menu's radio and check items show the shape as it is.
    private func showState() {
        if let aspectAction { Actions.setState(aspectAction, string: shape.transform.aspect.rawValue) }
        if let a = toggles["mirror"] { Actions.setState(a, bool: shape.transform.flipped) }
        if let a = toggles["zoom-to-fill"] { Actions.setState(a, bool: shape.fill) }
        if let a = toggles["crop-black-bars"] { Actions.setState(a, bool: shape.transform.crop != nil) }
    }
}
