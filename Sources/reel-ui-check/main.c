/* Checks Reel's GtkBuilder files the way Reel loads them: with libadwaita's classes known
 * (gtk4-builder-tool validate cannot load them). Every object of every file is built; any
 * message (an error, or a warning GTK prints while building) fails the check.
 * usage: reel-ui-check FILE.ui...
 * Needs a display (the windows are built, not shown). Built by SwiftPM for the test suite and
 * by Meson for its validators. */
#include <adwaita.h>
#include <stdio.h>

static gboolean printed = FALSE;

static GLogWriterOutput
note(GLogLevelFlags level, const GLogField *fields, gsize count, gpointer data)
{
    (void) data;
    if (level & (G_LOG_LEVEL_INFO | G_LOG_LEVEL_DEBUG))
        return G_LOG_WRITER_HANDLED;
    printed = TRUE;
    return g_log_writer_standard_streams(level, fields, count, NULL);
}

int
main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s FILE.ui...\n", argv[0]);
        return 2;
    }
    g_log_set_writer_func(note, NULL, NULL);
    if (!gtk_init_check()) {
        fprintf(stderr, "%s: cannot open a display\n", argv[0]);
        return 2;
    }
    adw_init();
    int failed = 0;
    for (int i = 1; i < argc; i++) {
        GtkBuilder *builder = gtk_builder_new();
        GError *error = NULL;
        if (!gtk_builder_add_from_file(builder, argv[i], &error)) {
            fprintf(stderr, "%s: %s\n", argv[i], error->message);
            g_error_free(error);
            failed = 1;
        }
        /* Toplevels are owned by GTK's window list, not the builder: destroyed here. */
        GSList *objects = gtk_builder_get_objects(builder);
        for (GSList *item = objects; item; item = item->next)
            if (GTK_IS_WINDOW(item->data))
                gtk_window_destroy(GTK_WINDOW(item->data));
        g_slist_free(objects);
        g_object_unref(builder);
    }
    return failed || printed ? 1 : 0;
}
