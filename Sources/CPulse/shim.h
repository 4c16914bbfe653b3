// libpulse for Swift: the header, plus the macros Swift cannot import re-exported as functions.
#ifndef REEL_CPULSE_SHIM_H
#define REEL_CPULSE_SHIM_H

#include <pulse/pulseaudio.h>

static inline pa_volume_t reel_pa_volume_norm(void) { return PA_VOLUME_NORM; }
static inline pa_volume_t reel_pa_volume_muted(void) { return PA_VOLUME_MUTED; }
static inline uint32_t reel_pa_invalid_index(void) { return PA_INVALID_INDEX; }
static inline int reel_pa_context_is_good(pa_context_state_t s) { return PA_CONTEXT_IS_GOOD(s); }
static inline int reel_pa_stream_is_good(pa_stream_state_t s) { return PA_STREAM_IS_GOOD(s); }
static inline pa_sample_format_t reel_pa_sample_float32ne(void) { return PA_SAMPLE_FLOAT32NE; }

#endif
