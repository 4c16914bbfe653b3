// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Reel",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "ReelMedia", targets: ["ReelMedia"]),
        .library(name: "ReelEngine", targets: ["ReelEngine"]),
        .library(name: "ReelGtk", targets: ["ReelGtk"]),
        .library(name: "ReelApp", targets: ["ReelApp"]),
        .executable(name: "reel", targets: ["reel"]),
        .executable(name: "reel-tool", targets: ["reel-tool"]),
        .executable(name: "reel-thumbnailer", targets: ["reel-thumbnailer"]),
        .executable(name: "reel-bench", targets: ["reel-bench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        // System libraries: one module per C library, each with a shim header that re-exports
        // the macros Swift cannot import (see the shim headers).
        .systemLibrary(
            name: "CFFmpeg", pkgConfig: "libavformat",
            providers: [.apt(["libavformat-dev", "libavcodec-dev", "libavutil-dev",
                              "libswscale-dev", "libswresample-dev", "libavfilter-dev"])]),
        .systemLibrary(
            name: "CPulse", pkgConfig: "libpulse",
            providers: [.apt(["libpulse-dev"])]),
        // GTK and libadwaita (GNOME's widgets and style on top of GTK) in one module: they
        // share every type, and one header set keeps Swift from seeing GtkWidget twice.
        .systemLibrary(
            name: "CGtk", pkgConfig: "libadwaita-1",
            providers: [.apt(["libgtk-4-dev", "libadwaita-1-dev"])]),
        // The core Wayland protocol, for the CPU path's subsurface on a Wayland desktop.
        .systemLibrary(
            name: "CWayland", pkgConfig: "wayland-client",
            providers: [.apt(["libwayland-dev"])]),
        // Xlib and MIT-SHM, for the CPU path's pictures put straight into the window on X11.
        .systemLibrary(
            name: "CX11", pkgConfig: "xext",
            providers: [.apt(["libx11-dev", "libxext-dev"])]),
        .systemLibrary(
            name: "CEpoxy", pkgConfig: "epoxy",
            providers: [.apt(["libepoxy-dev"])]),

        .systemLibrary(
            name: "CAss", pkgConfig: "libass",
            providers: [.apt(["libass-dev"])]),

        .systemLibrary(
            name: "CZimg", pkgConfig: "zimg",
            providers: [.apt(["libzimg-dev"])]),
        .systemLibrary(
            name: "CUchardet", pkgConfig: "uchardet",
            providers: [.apt(["libuchardet-dev"])]),

        .systemLibrary(name: "CLinux"),
        .systemLibrary(
            name: "CCurl", pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]),

        // The media layer at the bottom of the engine: opening, probing and decoding with FFmpeg,
        // pictures and their colour, thumbnails, and the values they speak in. Nothing here
        // plays, fetches over the network or draws subtitles, so the thumbnailer links it alone.
        .target(
            name: "ReelMedia",
            dependencies: ["CFFmpeg", "CZimg", "CLinux"]),
        // libavfilter and libswresample are the player's (its audio filters, resampler and
        // deinterlacer), linked here rather than by CFFmpeg so that ReelMedia goes without them.
        .target(
            name: "ReelEngine",
            dependencies: ["ReelMedia", "CFFmpeg", "CPulse", "CLinux", "CCurl", "CAss", "CZimg", "CUchardet"],
            linkerSettings: [.linkedLibrary("avfilter"), .linkedLibrary("swresample")]),
        .target(
            name: "ReelGtk",
            dependencies: ["ReelEngine", "CGtk", "CEpoxy", "CWayland", "CX11"]),
        // The application around the player widget: window, queue, resume, remote, preferences.
        .target(
            name: "ReelApp",
            dependencies: ["ReelGtk", "ReelEngine", "CGtk", "CX11"]),
        .executableTarget(
            name: "reel",
            dependencies: ["ReelApp"]),
        // The player widget in another program's plain window (not installed; a window test runs it).
        .executableTarget(
            name: "reel-widget-example",
            dependencies: ["ReelGtk", "CGtk"]),
        // Loads every GtkBuilder file with libadwaita's classes known (not installed; the
        // suite's and Meson's validators run it). C, so that Meson builds the same file.
        .executableTarget(
            name: "reel-ui-check",
            dependencies: ["CGtk"]),
        .executableTarget(
            name: "reel-tool",
            dependencies: [
                "ReelEngine", "ReelCommandLine", "CLinux",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        // The file manager's thumbnailer (data/io.github.reel.Reel.thumbnailer), installed.
        .executableTarget(
            name: "reel-thumbnailer",
            dependencies: [
                "ReelMedia",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        // What reel-tool and reel-bench share: JSON lines out, failures, the way they start and end.
        .target(
            name: "ReelCommandLine",
            dependencies: [
                "ReelEngine",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        // Benchmarks against ffmpeg and mpv; built beside reel-tool and reel, never installed.
        .executableTarget(
            name: "reel-bench",
            dependencies: [
                "ReelEngine", "ReelCommandLine",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        // What the test targets share: running programs, fixtures, a sound server, ports.
        .target(
            name: "ReelTestSupport",
            path: "Tests/ReelTestSupport"),
        // The tests come in three targets, by what they need and how long they take (the
        // README says how to run each alone):
        // unit suites — policies and value types, no window, no media, no thread (seconds);
        .testTarget(
            name: "ReelUnitTests",
            dependencies: ["ReelEngine", "ReelGtk", "ReelApp", "ReelTestSupport", "CGtk"]),
        // the engine against real media, a real sound server and real HTTP servers (minutes);
        .testTarget(
            name: "ReelEngineTests",
            dependencies: ["ReelEngine", "ReelTestSupport", "CFFmpeg"]),
        // the real `reel` in private Xvfb desktops, driven by real input (minutes).
        .testTarget(
            name: "ReelWindowTests",
            dependencies: ["ReelGtk", "ReelApp", "ReelEngine", "ReelTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
