// uchardet for Swift: finds the text encoding of a subtitle file (the detector mpv uses). Its
// header imports as it is; this shim is the one place Reel includes it (pkg-config's include
// path is the header's own folder).
#ifndef REEL_CUCHARDET_SHIM_H
#define REEL_CUCHARDET_SHIM_H
#include <uchardet.h>
#endif
