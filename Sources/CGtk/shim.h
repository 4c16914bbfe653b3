// GTK 4, libadwaita and GLib for Swift: the headers, plus what Swift cannot import (macros, variadic
// functions, GType constants), re-exported as static inline functions.
#ifndef REEL_CGTK_SHIM_H
#define REEL_CGTK_SHIM_H
#define G_SETTINGS_ENABLE_BACKEND
#include <gtk/gtk.h>
#include <adwaita.h>
#include <gio/gsettingsbackend.h>
#include <gio/gio.h>
#include <glib-unix.h>
#include <libintl.h>
#include <locale.h>

static inline gboolean reel_source_continue(void) { return G_SOURCE_CONTINUE; }
static inline gboolean reel_source_remove(void) { return G_SOURCE_REMOVE; }
static inline guint reel_button_primary(void) { return GDK_BUTTON_PRIMARY; }
static inline guint reel_button_secondary(void) { return GDK_BUTTON_SECONDARY; }
static inline guint32 reel_current_time(void) { return GDK_CURRENT_TIME; }

// Fundamental GTypes are macros over G_TYPE_MAKE_FUNDAMENTAL.
static inline GType reel_type_boolean(void) { return G_TYPE_BOOLEAN; }
static inline GType reel_type_int(void) { return G_TYPE_INT; }
static inline GType reel_type_uint(void) { return G_TYPE_UINT; }
static inline GType reel_type_double(void) { return G_TYPE_DOUBLE; }
static inline GType reel_type_string(void) { return G_TYPE_STRING; }
static inline GType reel_type_object(void) { return G_TYPE_OBJECT; }
static inline GType reel_type_file(void) { return G_TYPE_FILE; }
static inline GType reel_type_file_list(void) { return GDK_TYPE_FILE_LIST; }

// g_object_set is variadic; these set one property of a known type.
static inline void reel_object_set_bool(gpointer object, const char *name, gboolean value) {
    g_object_set(object, name, value, NULL);
}
static inline void reel_object_set_int(gpointer object, const char *name, gint value) {
    g_object_set(object, name, value, NULL);
}
static inline void reel_object_set_uint(gpointer object, const char *name, guint value) {
    g_object_set(object, name, value, NULL);
}
static inline void reel_object_set_double(gpointer object, const char *name, gdouble value) {
    g_object_set(object, name, value, NULL);
}
static inline void reel_object_set_string(gpointer object, const char *name, const char *value) {
    g_object_set(object, name, value, NULL);
}
static inline gint reel_object_get_int(gpointer object, const char *name) {
    gint value = 0;
    g_object_get(object, name, &value, NULL);
    return value;
}
static inline gboolean reel_object_get_bool(gpointer object, const char *name) {
    gboolean value = FALSE;
    g_object_get(object, name, &value, NULL);
    return value;
}

// g_variant_new is variadic: the few shapes Reel passes through actions.
static inline GVariant *reel_variant_string(const char *value) { return g_variant_new_string(value); }
static inline GVariant *reel_variant_double(double value) { return g_variant_new_double(value); }

// g_log is variadic: an informational line (shown with G_MESSAGES_DEBUG=DOMAIN or all).
static inline void reel_log_info(const char *domain, const char *message) {
    g_log(domain, G_LOG_LEVEL_INFO, "%s", message);
}

// Whether GSettings would keep values only in memory (no dconf on this system).
static inline gboolean reel_settings_backend_is_memory(GSettingsBackend *backend) {
    return g_str_equal(G_OBJECT_TYPE_NAME(backend), "GMemorySettingsBackend");
}

// GtkAlertDialog arrives in 4.10; GtkMessageDialog (deprecated there) is the 4.8 way.
static inline GtkWidget *reel_message_dialog_new(GtkWindow *parent, const char *primary, const char *secondary) {
    G_GNUC_BEGIN_IGNORE_DEPRECATIONS
    GtkWidget *dialog = gtk_message_dialog_new(parent, GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                               GTK_MESSAGE_ERROR, GTK_BUTTONS_CLOSE, "%s", primary);
    if (secondary) gtk_message_dialog_format_secondary_text(GTK_MESSAGE_DIALOG(dialog), "%s", secondary);
    G_GNUC_END_IGNORE_DEPRECATIONS
    return dialog;
}

#endif
