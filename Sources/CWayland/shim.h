// libwayland-client for Swift: the core protocol (wl_compositor, wl_subcompositor, wl_shm), the
// few GDK calls that hand over GDK's own Wayland objects, and what Swift cannot import (the
// protocol's interface structures are globals whose addresses libwayland keeps).
#ifndef REEL_CWAYLAND_SHIM_H
#define REEL_CWAYLAND_SHIM_H
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/memfd.h>
#include <wayland-client.h>

// GDK's Wayland calls (gdk/wayland/gdkwayland.h), declared here with GDK's own prototypes
// rather than included: that header brings all of GDK's along, which CGtk already imports,
// and Swift would then see every GDK type twice. GdkSurface and GdkDisplay are opaque
// structures and GType an unsigned long, exactly as GDK declares them.
struct _GdkSurface;
struct _GdkDisplay;
extern struct wl_surface *gdk_wayland_surface_get_wl_surface(struct _GdkSurface *surface);
extern struct wl_display *gdk_wayland_display_get_wl_display(struct _GdkDisplay *display);
extern unsigned long gdk_wayland_display_get_type(void);

// The globals Reel binds of its own, on its own event queue.
struct reel_wl_globals {
    struct wl_compositor *compositor;
    struct wl_subcompositor *subcompositor;
    struct wl_shm *shm;
};

static void reel_wl_registry_global(void *data, struct wl_registry *registry, uint32_t name,
                                    const char *interface, uint32_t version) {
    struct reel_wl_globals *globals = data;
    if (strcmp(interface, wl_compositor_interface.name) == 0 && !globals->compositor) {
        globals->compositor = wl_registry_bind(registry, name, &wl_compositor_interface, version < 4 ? version : 4);
    } else if (strcmp(interface, wl_subcompositor_interface.name) == 0 && !globals->subcompositor) {
        globals->subcompositor = wl_registry_bind(registry, name, &wl_subcompositor_interface, 1);
    } else if (strcmp(interface, wl_shm_interface.name) == 0 && !globals->shm) {
        globals->shm = wl_registry_bind(registry, name, &wl_shm_interface, 1);
    }
}

static void reel_wl_registry_global_remove(void *data, struct wl_registry *registry, uint32_t name) {
    (void)data; (void)registry; (void)name;
}

static const struct wl_registry_listener reel_wl_registry_listener = {
    reel_wl_registry_global,
    reel_wl_registry_global_remove,
};

// Binds the compositor, the subcompositor and shm on `queue` (a registry of its own through a
// wrapper of the display, so that no event of it reaches GDK's queue). 0 when all three were
// found; the bound ones are in `globals` either way.
static inline int reel_wl_bind_globals(struct wl_display *display, struct wl_event_queue *queue,
                                       struct reel_wl_globals *globals) {
    memset(globals, 0, sizeof *globals);
    struct wl_display *wrapper = wl_proxy_create_wrapper(display);
    if (!wrapper) return -1;
    wl_proxy_set_queue((struct wl_proxy *)wrapper, queue);
    struct wl_registry *registry = wl_display_get_registry(wrapper);
    wl_proxy_wrapper_destroy(wrapper);
    if (!registry) return -1;
    wl_registry_add_listener(registry, &reel_wl_registry_listener, globals);
    int result = wl_display_roundtrip_queue(display, queue);
    wl_registry_destroy(registry);
    if (result < 0) return -1;
    return globals->compositor && globals->subcompositor && globals->shm ? 0 : -1;
}

// An anonymous file for a buffer's pixels, shared with the compositor by its descriptor
// (glibc declares memfd_create only under _GNU_SOURCE, which Swift's Glibc module hides).
static inline int reel_wl_memory_file(const char *name) {
    return (int)syscall(SYS_memfd_create, name, MFD_CLOEXEC);
}
#endif
