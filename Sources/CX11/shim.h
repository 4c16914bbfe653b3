// Xlib and its MIT-SHM extension for Swift: where a window is and moving it (GTK 4 offers
// neither; X11 lets a client do both), shared-memory images put straight into GTK's X11
// window, the few GDK calls that hand over GDK's own X objects, and what Swift cannot import
// (Xlib's macros over the Display and XImage structures).
#ifndef REEL_CX11_SHIM_H
#define REEL_CX11_SHIM_H
#include <sys/ipc.h>
#include <sys/shm.h>
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/extensions/XShm.h>

// GDK's X11 calls (gdk/x11/gdkx.h), declared here with GDK's own prototypes rather than
// included: that header brings all of GDK's along, which CGtk already imports, and Swift would
// then see every GDK type twice. GdkSurface and GdkDisplay are opaque structures and GType an
// unsigned long, exactly as GDK declares them.
struct _GdkSurface;
struct _GdkDisplay;
struct _GdkMonitor;
struct _cairo_rectangle_int;
extern Display *gdk_x11_display_get_xdisplay(struct _GdkDisplay *display);
extern Window gdk_x11_surface_get_xid(struct _GdkSurface *surface);
extern unsigned long gdk_x11_display_get_type(void);
extern unsigned long gdk_x11_surface_get_type(void);
extern unsigned long gdk_x11_monitor_get_type(void);
extern void gdk_x11_monitor_get_workarea(struct _GdkMonitor *monitor, struct _cairo_rectangle_int *workarea);
extern void gdk_x11_display_error_trap_push(struct _GdkDisplay *display);
extern int gdk_x11_display_error_trap_pop(struct _GdkDisplay *display);

// A shared-memory image of `width`×`height` in `visual`'s ZPixmap layout, its segment made,
// mapped and attached to the server; the segment is marked for removal at once, so that it
// goes when both sides let go of it even if the process dies. NULL when any step fails (the
// caller traps X errors around it: a remote server cannot attach). `segment` is filled in.
static inline XImage *reel_x11_shared_image(Display *display, Visual *visual, int depth, int width, int height,
                                            XShmSegmentInfo *segment) {
    segment->shmid = -1;
    segment->shmaddr = (char *)-1;
    XImage *image = XShmCreateImage(display, visual, (unsigned)depth, ZPixmap, NULL, segment,
                                    (unsigned)width, (unsigned)height);
    if (!image) return NULL;
    segment->shmid = shmget(IPC_PRIVATE, (size_t)image->bytes_per_line * (size_t)image->height, IPC_CREAT | 0600);
    if (segment->shmid < 0) { XDestroyImage(image); return NULL; }
    segment->shmaddr = image->data = shmat(segment->shmid, NULL, 0);
    if (segment->shmaddr == (char *)-1) {
        shmctl(segment->shmid, IPC_RMID, NULL);
        image->data = NULL;
        XDestroyImage(image);
        return NULL;
    }
    segment->readOnly = True;
    Status attached = XShmAttach(display, segment);
    XSync(display, False);
    shmctl(segment->shmid, IPC_RMID, NULL);
    if (!attached) {
        shmdt(segment->shmaddr);
        image->data = NULL;
        XDestroyImage(image);
        return NULL;
    }
    return image;
}

// Lets go of an image made by reel_x11_shared_image (the server first).
static inline void reel_x11_destroy_shared_image(Display *display, XImage *image, XShmSegmentInfo *segment) {
    XShmDetach(display, segment);
    shmdt(segment->shmaddr);
    image->data = NULL;
    XDestroyImage(image);
}

// The window's top-left corner on the screen; false when the server cannot say.
static inline int reel_x11_window_origin(Display *display, Window window, int *x, int *y) {
    Window child = 0;
    return XTranslateCoordinates(display, window, DefaultRootWindow(display), 0, 0, x, y, &child) != 0;
}

// Asks the window manager to move the window's top-left corner to (x, y), now.
static inline void reel_x11_move_window(Display *display, Window window, int x, int y) {
    XMoveWindow(display, window, x, y);
    XFlush(display);
}

static inline unsigned long reel_x11_next_request(Display *display) { return NextRequest(display); }
static inline unsigned long reel_x11_last_processed(Display *display) { return LastKnownRequestProcessed(display); }
#endif
