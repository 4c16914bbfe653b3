import Foundation
import ReelTestSupport
import Testing

/// The CPU path's picture on Wayland, on a subsurface of its own below Reel's window (GTK's
/// window clear where the picture is): seen in the protocol Reel speaks (libwayland's own
/// `WAYLAND_DEBUG` trace: the subsurface made, shared-memory buffers committed to it and
/// released), in `--report`, and on the compositor's screen: the picture follows the window into
/// fullscreen and back, and the controls and the header bar are drawn over it.
/// Threading: serialised; each test has a desktop and a compositor of its own.
@Suite("The picture on a Wayland subsurface", .serialized)
struct WaylandPictureTests {
    static let red = ScreenImage.Color(r: 255, g: 0, b: 0)

    /// What libwayland traced of Reel's requests (`WAYLAND_DEBUG=client`, on stderr): the
    /// subsurfaces made, and for each surface the buffers attached to it and its commits.
    struct ProtocolTrace {
        /// `wl_surface@N` of each `get_subsurface` (the child surface).
        var subsurfaces: [String] = []
        /// Commits of a surface that follow an attach of a buffer, by surface.
        var bufferCommits: [String: Int] = [:]
        /// The shared-memory buffers ever attached to a surface, as "width x height" each (GTK's
        /// window has buffers of its own).
        var buffersAttached: [String: [String]] = [:]

        init(_ text: String) {
            var attached: Set<String> = []
            // Object ids come back when freed: a buffer is the latest one made with its id.
            var made: [(id: String, size: String)] = [], latest: [String: Int] = [:], counted: [String: Set<Int>] = [:]
            func arguments(_ request: Substring) -> [String] {
                guard let open = request.firstIndex(of: "("), let close = request.lastIndex(of: ")") else { return [] }
                return request[request.index(after: open)..<close].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            }
            for line in text.split(separator: "\n") {
                guard let arrow = line.range(of: " -> ") else { continue }
                let request = line[arrow.upperBound...]
                // "wl_subcompositor@12.get_subsurface(new id wl_subsurface@20, wl_surface@19, wl_surface@3)"
                if request.contains(".get_subsurface(") {
                    let list = arguments(request)
                    if list.count >= 2 { subsurfaces.append(list[1]) }
                }
                // "wl_shm_pool@21.create_buffer(new id wl_buffer@22, 0, 1024, 576, 4096, 1)"
                if request.hasPrefix("wl_shm_pool@"), request.contains(".create_buffer(") {
                    let list = arguments(request)
                    if list.count >= 4 {
                        let id = list[0].replacingOccurrences(of: "new id ", with: "")
                        latest[id] = made.count
                        made.append((id, "\(list[2])x\(list[3])"))
                    }
                }
                // "wl_surface@19.attach(wl_buffer@22, 0, 0)", then "wl_surface@19.commit()"
                guard request.hasPrefix("wl_surface@"), let dot = request.firstIndex(of: ".") else { continue }
                let surface = String(request[..<dot])
                if request.contains(".attach(wl_buffer@") {
                    attached.insert(surface)
                    if let buffer = arguments(request).first, let index = latest[buffer], counted[surface, default: []].insert(index).inserted {
                        buffersAttached[surface, default: []].append(made[index].size)
                    }
                }
                if request.contains(".commit()"), attached.remove(surface) != nil { bufferCommits[surface, default: 0] += 1 }
            }
        }
    }

    /// Runs `reel --report --exit-after 2` on `clip` as a client of `compositor`, traced.
    static func tracedRun(_ desktop: Desktop, _ compositor: WestonCompositor, _ clip: String,
                          extra: [String: String] = [:]) throws -> (report: String, trace: ProtocolTrace) {
        let environment = compositor.environment.merging(["WAYLAND_DEBUG": "client"]) { $1 }.merging(extra) { $1 }
        let result = try desktop.run([ReelApp.binary, "--report", "--exit-after", "2", clip], extra: environment)
        return (result.output, ProtocolTrace(result.errors))
    }

    @Test("The CPU path commits each picture drawn to a subsurface of its own, in three buffers the compositor releases; switched off, none")
    func subsurfaceInUse() throws {
        let desktop = try Desktop(windowManager: false)
        defer { desktop.stop() }
        try desktop.writeSettings(["remember-queue=false"])
        let compositor = try WestonCompositor(on: desktop, width: 1024, height: 576)
        defer { compositor.stop() }
        let clip = try Fixtures.path(.longSmall)

        let on = try Self.tracedRun(desktop, compositor, clip)
        let said = try #require(DrawingPathTests.reported(on.report, "video_output").first, "\(on.report)")
        #expect(said["path"] as? String == "software", "\(said)")
        #expect(said["subsurface"] as? Bool == true, "\(said)")
        let summary = try #require(DrawingPathTests.reported(on.report, "summary").last, "\(on.report)")
        let drawn = try #require(summary["frames_drawn"] as? Int)
        // Two seconds of a 30 fps clip, traced (which slows the client).
        #expect(drawn >= 20, "\(summary)")
        #expect(on.trace.subsurfaces.count == 1, "subsurfaces made: \(on.trace.subsurfaces)")
        let child = try #require(on.trace.subsurfaces.first)
        // Every picture counted as drawn was committed there (and a black one before the first).
        let commits = on.trace.bufferCommits[child] ?? 0
        #expect(commits >= drawn, "\(commits) buffers committed to \(child) for \(drawn) pictures drawn")
        // The kiosk shell gives the window the whole output; the buffers cover the picture's
        // widget, all of it (made again at each size the window had on its way there). Only a
        // pool's worth at a size: the compositor gave them back, and they were written again.
        let buffers = on.trace.buffersAttached[child] ?? []
        #expect(buffers.last == "1024x576", "buffers: \(buffers)")
        let bySize = Dictionary(grouping: buffers) { $0 }.mapValues(\.count)
        #expect(bySize.values.allSatisfy { $0 <= 3 }, "buffers made, by size: \(bySize) for \(commits) commits")

        let off = try Self.tracedRun(desktop, compositor, clip, extra: ["REEL_WAYLAND_SUBSURFACE": "0"])
        let saidOff = try #require(DrawingPathTests.reported(off.report, "video_output").first, "\(off.report)")
        #expect(saidOff["subsurface"] as? Bool == false, "\(saidOff)")
        #expect((saidOff["subsurface_reason"] as? String)?.contains("REEL_WAYLAND_SUBSURFACE") == true, "\(saidOff)")
        #expect(off.trace.subsurfaces.isEmpty, "subsurfaces made: \(off.trace.subsurfaces)")
        let summaryOff = try #require(DrawingPathTests.reported(off.report, "summary").last, "\(off.report)")
        #expect((summaryOff["frames_drawn"] as? Int ?? 0) >= 20, "\(summaryOff)")
    }

    @Test("The picture follows the window into fullscreen, over the whole output, and back to its own size")
    func followsFullscreen() throws {
        let output = (width: 1024, height: 576)
        try WaylandTests.onCompositor(settings: ["hide-controls-while-paused=true"], arguments: ["--paused", try Fixtures.path(.solidRed)],
                                      output: output, shell: .desktop) { desktop, compositor, app in
            try app.element(named: "Play")
            // Strips at the output's left and right edges, half way down (clear of the header
            // bar and the controls): the picture's only where the window is.
            func edgesRed(_ name: String) throws -> Bool {
                let shot = try desktop.screenshot(name)
                return try [8, output.width - 48].allSatisfy { x in
                    try ScreenImage.average(shot, x: x, y: output.height / 2 - 20, width: 40, height: 40).distance(to: Self.red) < 40
                }
            }
            var window: ScreenImage.Box?
            func windowOnOutput(_ name: String) throws -> ScreenImage.Box? {
                try ScreenImage.bounds(try desktop.screenshot(name), of: WestonCompositor.background.hex, matching: false,
                                       within: compositor.output)
            }
            try Desktop.wait("Reel's window smaller than the output", log: app.log) {
                window = try windowOnOutput("windowed")
                return window.map { $0.width < output.width - 40 } ?? false
            }
            try desktop.key("f")
            try Desktop.wait("the picture at both edges of the output", log: app.log) { try edgesRed("fullscreen") }
            try desktop.key("Escape")
            // Nothing of the picture left where the window no longer is, and the picture in it.
            do {
                try Desktop.wait("the picture back in the window at its own size", log: app.log) {
                    window = try windowOnOutput("unfullscreen")
                    guard let box = window, box.width < output.width - 40 else { return false }
                    let shot = try desktop.screenshot("unfullscreen-centre")
                    return try ScreenImage.average(shot, x: box.x + box.width / 2 - 20, y: box.y + box.height / 2 - 20,
                                                   width: 40, height: 40).distance(to: Self.red) < 40
                }
            } catch {
                Issue.record("after Escape, what is not background on the output: \(String(describing: window))")
                throw error
            }
        }
    }

    @Test("The controls and the header bar are drawn over the picture; the picture shows through the header's shade")
    func controlsOverThePicture() throws {
        try WaylandTests.onCompositor(settings: ["controls-display-duration=30.0", "hide-controls-while-paused=true"],
                                      arguments: ["--paused", try Fixtures.path(.solidRed)]) { desktop, _, app in
            let movie = try app.element(named: "Video")
            let play = try app.element(named: "Play")
            try desktop.glide(to: movie.x + movie.width / 2, movie.y + movie.height / 3)
            var seen: [String: ScreenImage.Color] = [:]
            do {
                try Desktop.wait("the controls and the header bar over the red picture", log: app.log) {
                    let shot = try desktop.screenshot("controls")
                    // The play button's middle, the picture between the header bar and the
                    // controls, and the header bar's top strip away from its title and buttons.
                    seen["button"] = try ScreenImage.average(shot, x: play.x + play.width / 2 - 4, y: play.y + play.height / 2 - 4,
                                                             width: 8, height: 8)
                    seen["picture"] = try ScreenImage.average(shot, x: movie.x + movie.width / 4, y: movie.y + movie.height / 2,
                                                              width: 40, height: 40)
                    seen["header"] = try ScreenImage.average(shot, x: movie.x + movie.width / 4, y: movie.y + 2, width: 40, height: 6)
                    guard let button = seen["button"], let picture = seen["picture"], let header = seen["header"] else { return false }
                    // Drawn over (not red), the picture itself (red), and the shade over red:
                    // darker than the picture, but red.
                    return button.distance(to: Self.red) > 100 && picture.distance(to: Self.red) < 40
                        && header.r < 200 && header.r > header.g + 20 && header.r > header.b + 20
                }
            } catch {
                Issue.record("seen: \(seen)")
                throw error
            }
        }
    }
}
