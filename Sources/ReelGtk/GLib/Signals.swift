import CGtk

/// Connects Swift closures to GObject signals. Each closure is boxed and handed to GLib with a
/// destroy-notify that releases it, so GLib owns its lifetime (it goes when the object or the
/// connection goes). One thunk per C signature: GLib calls handlers with exactly the argument
/// list of the signal, and Swift must match it.
/// Threading: connect and fire on the GTK main thread; the thunks enter the main actor there.
@MainActor
public enum Signal {
    public final class Box<F>: @unchecked Sendable {
        // Safe: created, called and released on the GTK main thread only.
        let handler: F
        init(_ handler: F) { self.handler = handler }
    }

    private static let release: GClosureNotify = { data, _ in
        guard let data else { return }
        Unmanaged<AnyObject>.fromOpaque(data).release()
    }

    @discardableResult
    private static func connect<F>(_ instance: UnsafeMutableRawPointer, _ name: String,
                                   _ thunk: GCallback, _ handler: F, after: Bool = false) -> gulong {
        let box = Unmanaged.passRetained(Box(handler)).toOpaque()
        return g_signal_connect_data(instance.cast(to: GObject.self), name, thunk, box, release,
                                     after ? G_CONNECT_AFTER : GConnectFlags(0))
    }

    private static func box<F>(_ data: UnsafeMutableRawPointer?) -> Box<F> {
        Unmanaged<Box<F>>.fromOpaque(data!).takeUnretainedValue()
    }

    public static func disconnect(_ instance: UnsafeMutableRawPointer, _ id: gulong) {
        g_signal_handler_disconnect(instance.cast(to: GObject.self), id)
    }

    // MARK: Shapes

    /// `(instance)`: clicked, activate, realize, unrealize, destroy, value-changed, enter, leave…
    /// `after`: once the handlers connected without it have run (G_CONNECT_AFTER).
    @discardableResult
    public static func connect(_ instance: UnsafeMutableRawPointer, _ name: String, after: Bool = false,
                        _ handler: @escaping @MainActor () -> Void) -> gulong {
        let thunk: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { _, data in
            let b: Box<@MainActor () -> Void> = Signal.box(data)
            MainActor.assumeIsolated { b.handler() }
        }
        return connect(instance, name, unsafeBitCast(thunk, to: GCallback.self), handler, after: after)
    }

    /// `(instance) -> gboolean`: close-request, and others that can stop propagation.
    @discardableResult
    public static func connectReturning(_ instance: UnsafeMutableRawPointer, _ name: String,
                                 _ handler: @escaping @MainActor () -> Bool) -> gulong {
        let thunk: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> gboolean = { _, data in
            let b: Box<@MainActor () -> Bool> = Signal.box(data)
            return MainActor.assumeIsolated { b.handler() } ? 1 : 0
        }
        return connect(instance, name, unsafeBitCast(thunk, to: GCallback.self), handler)
    }

    /// `(instance, pointer) -> gboolean`: GtkGLArea render (GdkGLContext*).
    @discardableResult
    public static func connectPointerReturning(_ instance: UnsafeMutableRawPointer, _ name: String,
                                        _ handler: @escaping @MainActor (UnsafeMutableRawPointer?) -> Bool) -> gulong {
        let thunk: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> gboolean = { _, p, data in
            let b: Box<@MainActor (UnsafeMutableRawPointer?) -> Bool> = Signal.box(data)
            return MainActor.assumeIsolated { b.handler(p) } ? 1 : 0
        }
        return connect(instance, name, unsafeBitCast(thunk, to: GCallback.self), handler)
    }

    /// `(instance, pointer)`: notify::property (GParamSpec*), and other one-pointer signals.
    @discardableResult
    public static func connectPointer(_ instance: UnsafeMutableRawPointer, _ name: String,
                               _ handler: @escaping @MainActor (UnsafeMutableRawPointer?) -> Void) -> gulong {
        let thunk: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { _, p, data in
            let b: Box<@MainActor (UnsafeMutableRawPointer?) -> Void> = Signal.box(data)
            MainActor.assumeIsolated { b.handler(p) }
        }
        return connect(instance, name, unsafeBitCast(thunk, to: GCallback.self), handler)
    }

    /// `(instance, gint, gint)`: GtkGLArea resize.
    @discardableResult
    public static func connectIntInt(_ instance: UnsafeMutableRawPointer, _ name: String,
                              _ handler: @escaping @MainActor (Int, Int) -> Void) -> gulong {
        let thunk: @convention(c) (UnsafeMutableRawPointer?, gint, gint, UnsafeMutableRawPointer?) -> Void = { _, a, b, data in
            let box: Box<@MainActor (Int, Int) -> Void> = Signal.box(data)
            MainActor.assumeIsolated { box.handler(Int(a), Int(b)) }
        }
        return connect(instance, name, unsafeBitCast(thunk, to: GCallback.self), handler)
    }

    /// `(instance, gdouble, gdouble)`: motion, enter (x, y), drag-begin/update (x, y or offsets).
    @discardableResult
    public static func connectPoint(_ instance: UnsafeMutableRawPointer, _ name: String,
                             _ handler: @escaping @MainActor (Double, Double) -> Void) -> gulong {
        let thunk: @convention(c) (UnsafeMutableRawPointer?, gdouble, gdouble, UnsafeMutableRawPointer?) -> Void = { _, x, y, data in
            let box: Box<@MainActor (Double, Double) -> Void> = Signal.box(data)
            MainActor.assumeIsolated { box.handler(x, y) }
        }
        return connect(instance, name, unsafeBitCast(thunk, to: GCallback.self), handler)
    }

    /// `(instance, gdouble dx, gdouble dy) -> gboolean`: GtkEventControllerScroll scroll.
    @discardableResult
    public static func connectScroll(_ instance: UnsafeMutableRawPointer,
                              _ handler: @escaping @MainActor (Double, Double) -> Bool) -> gulong {
        let thunk: @convention(c) (UnsafeMutableRawPointer?, gdouble, gdouble, UnsafeMutableRawPointer?) -> gboolean = { _, dx, dy, data in
            let box: Box<@MainActor (Double, Double) -> Bool> = Signal.box(data)
            return MainActor.assumeIsolated { box.handler(dx, dy) } ? 1 : 0
        }
        return connect(instance, "scroll", unsafeBitCast(thunk, to: GCallback.self), handler)
    }

    /// `(instance, gint n_press, gdouble x, gdouble y)`: GtkGestureClick pressed/released.
    @discardableResult
    public static func connectPress(_ instance: UnsafeMutableRawPointer, _ name: String,
                             _ handler: @escaping @MainActor (Int, Double, Double) -> Void) -> gulong {
        let thunk: @convention(c) (UnsafeMutableRawPointer?, gint, gdouble, gdouble, UnsafeMutableRawPointer?) -> Void = { _, n, x, y, data in
            let box: Box<@MainActor (Int, Double, Double) -> Void> = Signal.box(data)
            MainActor.assumeIsolated { box.handler(Int(n), x, y) }
        }
        return connect(instance, name, unsafeBitCast(thunk, to: GCallback.self), handler)
    }

    /// `(instance, guint keyval, guint keycode, GdkModifierType) -> gboolean`: key-pressed.
    @discardableResult
    public static func connectKey(_ instance: UnsafeMutableRawPointer, _ name: String,
                           _ handler: @escaping @MainActor (UInt32, GdkModifierType) -> Bool) -> gulong {
        let thunk: @convention(c) (UnsafeMutableRawPointer?, guint, guint, GdkModifierType, UnsafeMutableRawPointer?) -> gboolean = { _, keyval, _, state, data in
            let box: Box<@MainActor (UInt32, GdkModifierType) -> Bool> = Signal.box(data)
            return MainActor.assumeIsolated { box.handler(keyval, state) } ? 1 : 0
        }
        return connect(instance, name, unsafeBitCast(thunk, to: GCallback.self), handler)
    }

    /// `(instance, guint keyval, guint keycode, GdkModifierType)`: key-released.
    @discardableResult
    public static func connectKeyReleased(_ instance: UnsafeMutableRawPointer, _ name: String,
                                   _ handler: @escaping @MainActor (UInt32, GdkModifierType) -> Void) -> gulong {
        let thunk: @convention(c) (UnsafeMutableRawPointer?, guint, guint, GdkModifierType, UnsafeMutableRawPointer?) -> Void = { _, keyval, _, state, data in
            let box: Box<@MainActor (UInt32, GdkModifierType) -> Void> = Signal.box(data)
            MainActor.assumeIsolated { box.handler(keyval, state) }
        }
        return connect(instance, name, unsafeBitCast(thunk, to: GCallback.self), handler)
    }

    /// `(GApplication, GFile **files, gint n_files, gchar *hint)`: open.
    @discardableResult
    public static func connectOpen(_ instance: UnsafeMutableRawPointer,
                            _ handler: @escaping @MainActor ([OpaquePointer]) -> Void) -> gulong {
        let thunk: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<OpaquePointer?>?, gint,
                                   UnsafePointer<CChar>?, UnsafeMutableRawPointer?) -> Void = { _, files, count, _, data in
            let box: Box<@MainActor ([OpaquePointer]) -> Void> = Signal.box(data)
            let list = (0..<Int(count)).compactMap { files?[$0] }
            MainActor.assumeIsolated { box.handler(list) }
        }
        return connect(instance, "open", unsafeBitCast(thunk, to: GCallback.self), handler)
    }

    /// `(GApplication, pointer) -> gint`: handle-local-options (a GVariantDict) and command-line
    /// (a GApplicationCommandLine); the handler's number is the signal's return value.
    @discardableResult
    public static func connectReturningStatus(_ instance: UnsafeMutableRawPointer, _ name: String,
                                              _ handler: @escaping @MainActor (UnsafeMutableRawPointer) -> Int32) -> gulong {
        let thunk: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> gint = { _, argument, data in
            let box: Box<@MainActor (UnsafeMutableRawPointer) -> Int32> = Signal.box(data)
            guard let argument else { return 1 }
            return MainActor.assumeIsolated { box.handler(argument) }
        }
        return connect(instance, name, unsafeBitCast(thunk, to: GCallback.self), handler)
    }

    /// `(GtkRange, GtkScrollType, gdouble) -> gboolean`: change-value.
    @discardableResult
    public static func connectChangeValue(_ instance: UnsafeMutableRawPointer,
                                   _ handler: @escaping @MainActor (Double) -> Bool) -> gulong {
        let thunk: @convention(c) (UnsafeMutableRawPointer?, GtkScrollType, gdouble, UnsafeMutableRawPointer?) -> gboolean = { _, _, value, data in
            let box: Box<@MainActor (Double) -> Bool> = Signal.box(data)
            return MainActor.assumeIsolated { box.handler(value) } ? 1 : 0
        }
        return connect(instance, "change-value", unsafeBitCast(thunk, to: GCallback.self), handler)
    }

    /// `(GtkDropTarget, const GValue *, gdouble, gdouble) -> gboolean`: drop.
    @discardableResult
    public static func connectDrop(_ instance: UnsafeMutableRawPointer,
                            _ handler: @escaping @MainActor (UnsafePointer<GValue>?) -> Bool) -> gulong {
        let thunk: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<GValue>?, gdouble, gdouble, UnsafeMutableRawPointer?) -> gboolean = { _, value, _, _, data in
            let box: Box<@MainActor (UnsafePointer<GValue>?) -> Bool> = Signal.box(data)
            return MainActor.assumeIsolated { box.handler(value) } ? 1 : 0
        }
        return connect(instance, "drop", unsafeBitCast(thunk, to: GCallback.self), handler)
    }

    /// `(GSimpleAction, GVariant *parameter)`: activate of an action.
    @discardableResult
    public static func connectAction(_ instance: UnsafeMutableRawPointer,
                              _ handler: @escaping @MainActor (OpaquePointer?) -> Void) -> gulong {
        let thunk: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafeMutableRawPointer?) -> Void = { _, parameter, data in
            let box: Box<@MainActor (OpaquePointer?) -> Void> = Signal.box(data)
            MainActor.assumeIsolated { box.handler(parameter) }
        }
        return connect(instance, "activate", unsafeBitCast(thunk, to: GCallback.self), handler)
    }

    /// `(GSettings, gchar *key)`: changed.
    @discardableResult
    public static func connectSettingChanged(_ instance: UnsafeMutableRawPointer,
                                      _ handler: @escaping @MainActor (String) -> Void) -> gulong {
        let thunk: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, UnsafeMutableRawPointer?) -> Void = { _, key, data in
            let box: Box<@MainActor (String) -> Void> = Signal.box(data)
            let name = key.map { String(cString: $0) } ?? ""
            MainActor.assumeIsolated { box.handler(name) }
        }
        return connect(instance, "changed", unsafeBitCast(thunk, to: GCallback.self), handler)
    }

    /// `(GtkOverlay, GtkWidget *, GdkRectangle *) -> gboolean`: get-child-position.
    @discardableResult
    public static func connectChildPosition(_ instance: UnsafeMutableRawPointer,
                                     _ handler: @escaping @MainActor (UnsafeMutablePointer<GtkWidget>?, UnsafeMutablePointer<GdkRectangle>?) -> Bool) -> gulong {
        let thunk: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<GtkWidget>?, UnsafeMutablePointer<GdkRectangle>?,
                                   UnsafeMutableRawPointer?) -> gboolean = { _, child, rect, data in
            let box: Box<@MainActor (UnsafeMutablePointer<GtkWidget>?, UnsafeMutablePointer<GdkRectangle>?) -> Bool> = Signal.box(data)
            return MainActor.assumeIsolated { box.handler(child, rect) } ? 1 : 0
        }
        return connect(instance, "get-child-position", unsafeBitCast(thunk, to: GCallback.self), handler)
    }

    /// `(instance, gint)`: response of dialogs and file choosers.
    @discardableResult
    public static func connectInt(_ instance: UnsafeMutableRawPointer, _ name: String,
                           _ handler: @escaping @MainActor (Int) -> Void) -> gulong {
        let thunk: @convention(c) (UnsafeMutableRawPointer?, gint, UnsafeMutableRawPointer?) -> Void = { _, value, data in
            let box: Box<@MainActor (Int) -> Void> = Signal.box(data)
            MainActor.assumeIsolated { box.handler(Int(value)) }
        }
        return connect(instance, name, unsafeBitCast(thunk, to: GCallback.self), handler)
    }
}

