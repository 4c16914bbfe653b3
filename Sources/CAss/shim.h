// libass for Swift: the subtitle renderer (what mpv and FFmpeg's subtitles filter use).
// Everything libass-specific that Swift needs from C goes through here.
#ifndef REEL_CASS_SHIM_H
#define REEL_CASS_SHIM_H

#include <ass/ass.h>

// ASS_Image.color packs RGBA with alpha inverted (0 = opaque); these unpack it.
static inline unsigned reel_ass_red(unsigned c) { return (c >> 24) & 0xff; }
static inline unsigned reel_ass_green(unsigned c) { return (c >> 16) & 0xff; }
static inline unsigned reel_ass_blue(unsigned c) { return (c >> 8) & 0xff; }
static inline unsigned reel_ass_opacity(unsigned c) { return 255 - (c & 0xff); }

#endif
