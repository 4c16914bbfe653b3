import Foundation
import ReelTestSupport

/// The GNOME session manager's inhibit interface on a test desktop's bus: GTK's
/// `gtk_application_inhibit` calls it when it is on the bus, and this one writes down every
/// Inhibit and Uninhibit it receives. The whole gnome-session cannot run under Xvfb here; the
/// D-Bus interface GTK talks to is what Reel's behaviour is judged by.
/// Threading: owned by one test.
public final class SessionManagerStandIn {
    public struct Call: Equatable, Sendable {
        public let method: String
        public let cookie: UInt32
        public let flags: UInt32
    }

    private let log: String

    public init(on desktop: Desktop) throws {
        let script = desktop.home.appendingPathComponent("session-manager.py")
        try Self.script.write(to: script, atomically: true, encoding: .utf8)
        log = desktop.home.appendingPathComponent("session-manager.log").path
        try desktop.start(["/usr/bin/python3", script.path], log: log)
        try Desktop.wait("the session manager stand-in on the bus", log: log, timeout: 20) {
            ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").contains("ready")
        }
    }

    /// Inhibit and Uninhibit calls so far, in order.
    public func calls() -> [Call] {
        let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            let parts = line.split(separator: " ")
            guard parts.count == 3, parts[0] == "Inhibit" || parts[0] == "Uninhibit",
                  let cookie = UInt32(parts[1]), let flags = UInt32(parts[2]) else { return nil }
            return Call(method: String(parts[0]), cookie: cookie, flags: flags)
        }
    }

    /// Inhibitions handed out and not yet taken back.
    public func held() -> Set<UInt32> {
        var held: Set<UInt32> = []
        for call in calls() {
            if call.method == "Inhibit" { held.insert(call.cookie) } else { held.remove(call.cookie) }
        }
        return held
    }

    private static let script = #"""
    import sys
    from gi.repository import Gio, GLib
    XML = """<node><interface name="org.gnome.SessionManager">
    <method name="Inhibit"><arg type="s" direction="in"/><arg type="u" direction="in"/>
      <arg type="s" direction="in"/><arg type="u" direction="in"/><arg type="u" direction="out"/></method>
    <method name="Uninhibit"><arg type="u" direction="in"/></method>
    <method name="IsInhibited"><arg type="u" direction="in"/><arg type="b" direction="out"/></method>
    </interface></node>"""
    interface = Gio.DBusNodeInfo.new_for_xml(XML).interfaces[0]
    state = {"next": 0}
    def on_call(connection, sender, path, name, method, parameters, invocation):
        if method == "Inhibit":
            state["next"] += 1
            print("Inhibit", state["next"], parameters.unpack()[3], flush=True)
            invocation.return_value(GLib.Variant("(u)", (state["next"],)))
        elif method == "Uninhibit":
            print("Uninhibit", parameters.unpack()[0], 0, flush=True)
            invocation.return_value(None)
        else:
            invocation.return_value(GLib.Variant("(b)", (False,)))
    def on_bus(connection, name):
        connection.register_object("/org/gnome/SessionManager", interface, on_call, None, None)
    def on_name(connection, name):
        print("ready", flush=True)
    def on_lost(connection, name):
        print("lost", flush=True)
        sys.exit(1)
    Gio.bus_own_name(Gio.BusType.SESSION, "org.gnome.SessionManager", Gio.BusNameOwnerFlags.NONE,
                     on_bus, on_name, on_lost)
    GLib.MainLoop().run()
    """#
}
