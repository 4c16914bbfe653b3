// GTK 4 for Swift: the header, plus the macros Swift cannot import re-exported as functions.
#ifndef REEL_CGTK_SHIM_H
#define REEL_CGTK_SHIM_H
#include <gtk/gtk.h>
#endif
