import CGtk
import CWayland

/// A `wl_surface` of Reel's own as a subsurface of the window's: below it, desynchronised (its
/// commits show at once, not with the window's), taking no input (the pointer's events go to
/// the window over it, as they did to the widget).
/// Threading: main thread only.
@MainActor
final class Subsurface {
    private let connection: WaylandConnection
    private let parent: OpaquePointer
    private var surface: OpaquePointer?
    private var subsurface: OpaquePointer?
    /// Where it was last put and at what size (nil: not shown).
    private(set) var place: WidgetPlace?

    init?(connection: WaylandConnection, parent: OpaquePointer) {
        guard let surface = wl_compositor_create_surface(connection.compositor) else { return nil }
        guard let subsurface = wl_subcompositor_get_subsurface(connection.subcompositor, surface, parent) else {
            wl_surface_destroy(surface)
            return nil
        }
        self.connection = connection
        self.parent = parent
        self.surface = surface
        self.subsurface = subsurface
        wl_subsurface_set_desync(subsurface)
        wl_subsurface_place_below(subsurface, parent)
        if let none = wl_compositor_create_region(connection.compositor) {
            wl_surface_set_input_region(surface, none)
            wl_region_destroy(none)
        }
    }

    /// Shows `buffer` (the widget's size in device pixels) at `place`.
    func show(_ buffer: ShmBuffer, at place: WidgetPlace) {
        guard let surface, let subsurface else { return }
        if place.x != self.place?.x || place.y != self.place?.y {
            // Applied with the parent's next commit.
            wl_subsurface_set_position(subsurface, Int32(place.x), Int32(place.y))
        }
        buffer.attach(to: surface)
        wl_surface_set_buffer_scale(surface, Int32(place.scale))
        wl_surface_damage(surface, 0, 0, Int32(place.width), Int32(place.height))
        wl_surface_commit(surface)
        self.place = place
    }

    /// Unmaps it (a null buffer) until the next `show`.
    func hide() {
        guard let surface, place != nil else { return }
        wl_surface_attach(surface, nil, 0, 0)
        wl_surface_commit(surface)
        place = nil
    }

    func destroy() {
        if let subsurface { wl_subsurface_destroy(subsurface) }
        if let surface { wl_surface_destroy(surface) }
        subsurface = nil
        surface = nil
        place = nil
    }
}
