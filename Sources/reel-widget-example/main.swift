import CGtk
import Foundation
import ReelGtk

/// `reel-widget-example FILE|URL [WIDTHxHEIGHT]`: Reel's player view, with its own controls,
/// as the only child of a plain GtkWindow of another program (480×300 unless given), playing
/// what is named on the command line. Reel's application (queue, resume, preferences window,
/// MPRIS) is not part of it. Not installed: it shows how the widget is embedded.

let arguments = CommandLine.arguments.dropFirst()
guard let source = arguments.first else {
    FileHandle.standardError.write(Data("usage: reel-widget-example FILE|URL [WIDTHxHEIGHT]\n".utf8))
    exit(2)
}
let size = arguments.dropFirst().first.map { $0.split(separator: "x").compactMap { Int32($0) } } ?? [480, 300]
guard size.count == 2, size.allSatisfy({ $0 > 0 }) else {
    FileHandle.standardError.write(Data("reel-widget-example: the size is WIDTHxHEIGHT, e.g. 480x300\n".utf8))
    exit(2)
}

MainActor.assumeIsolated {
    g_set_prgname("reel-widget-example")
    gtk_init()
    PlayerStyles.load()
    let loop = g_main_loop_new(nil, 0)!
    let settings = PlayerSettings()
    VideoOutput.prepareWindows(preference: settings.videoOutput)
    let window = gtk_window_new()!
    gtk_window_set_title(window.cast(), "Reel widget example")
    gtk_window_set_default_size(window.cast(), size[0], size[1])
    let view = PlayerView(settings: settings)
    gtk_window_set_child(window.cast(), view.widget)
    Signal.connect(window.raw, "destroy") { g_main_loop_quit(loop) }
    gtk_window_present(window.cast())
    view.open(source)
    view.player.play()
    g_main_loop_run(loop)
    view.player.close()
    withExtendedLifetime(view) {}
}
