import CEpoxy
import CGtk
import Foundation

/// Finds out what draws GL on this display, before any window is shown: a GL context of the
/// display's own (no surface) is made current once and asked for GL_RENDERER.
/// Threading: main thread only (GDK).
@MainActor
enum GLProbe {
    static func run() -> Result<VideoOutput.GLInfo, VideoOutput.GLUnavailable> {
        guard let display = gdk_display_get_default() else { return .failure(.init("no display")) }
        var error: UnsafeMutablePointer<GError>?
        guard let context = gdk_display_create_gl_context(display, &error) else {
            return .failure(.init(Self.message(error)))
        }
        defer { g_object_unref(context.raw.cast(to: GObject.self)) }
        guard gdk_gl_context_realize(context, &error) != 0 else { return .failure(.init(Self.message(error))) }
        gdk_gl_context_make_current(context)
        defer { gdk_gl_context_clear_current() }
        func string(_ name: Int32) -> String {
            reel_gl_get_string(GLenum(name)).map { String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self)) } ?? ""
        }
        return .success(.init(renderer: string(GL_RENDERER), vendor: string(GL_VENDOR), version: string(GL_VERSION)))
    }

    private static func message(_ error: UnsafeMutablePointer<GError>?) -> String {
        defer { if let error { g_error_free(error) } }
        return error.map { String(cString: $0.pointee.message) } ?? "GL is not supported"
    }
}
