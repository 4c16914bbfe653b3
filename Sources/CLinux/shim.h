// Linux/glibc calls that Swift's Glibc module hides behind _GNU_SOURCE.
#ifndef REEL_CLINUX_SHIM_H
#define REEL_CLINUX_SHIM_H
#include <libintl.h>
#include <locale.h>
#include <malloc.h>
#include <pthread.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

// glibc exports it; the header only declares it under _GNU_SOURCE.
extern int pthread_setname_np(pthread_t thread, const char *name);

static inline void reel_set_thread_name(const char *name) { pthread_setname_np(pthread_self(), name); }

// On Linux each thread has its own nice value: setpriority on the thread id (not the process
// id) lowers only the calling thread. gettid has no glibc wrapper before 2.30's header.
static inline int reel_set_thread_nice(int nice) {
    return setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), nice);
}
// Bytes the allocator has handed out and not had back (small chunks in every arena plus mmapped
// blocks): live memory, without the free pages an arena keeps in hand, which RSS also counts.
static inline size_t reel_heap_in_use(void) {
    struct mallinfo2 info = mallinfo2();
    return info.uordblks + info.hblkhd;
}
#endif
