// libepoxy for Swift: epoxy's gl* names are macros over function pointers, which Swift cannot see;
// the GL calls Reel makes are wrapped here as static inline functions.
#ifndef REEL_CEPOXY_SHIM_H
#define REEL_CEPOXY_SHIM_H
#include <epoxy/gl.h>
#endif
