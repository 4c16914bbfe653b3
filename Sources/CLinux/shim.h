// Linux/glibc calls that Swift's Glibc module hides behind _GNU_SOURCE.
#ifndef REEL_CLINUX_SHIM_H
#define REEL_CLINUX_SHIM_H
#include <pthread.h>

// glibc exports it; the header only declares it under _GNU_SOURCE.
extern int pthread_setname_np(pthread_t thread, const char *name);

static inline void reel_set_thread_name(const char *name) { pthread_setname_np(pthread_self(), name); }
#endif
