// zimg for Swift: colour conversion and resampling of planar pictures, with the CPU's vector
// units (what mpv's software outputs use). Its header imports as it is; this shim is the one
// place Reel includes it.
#ifndef REEL_CZIMG_SHIM_H
#define REEL_CZIMG_SHIM_H
#include <zimg.h>

static inline unsigned reel_zimg_api_version(void) { return ZIMG_API_VERSION; }

// The buffers' planes are arrays of anonymous structs, which Swift does not import: set them here.
static inline void reel_zimg_source_plane(zimg_image_buffer_const *buffer, int i, const void *data, ptrdiff_t stride) {
    buffer->version = ZIMG_API_VERSION;
    buffer->plane[i].data = data;
    buffer->plane[i].stride = stride;
    buffer->plane[i].mask = ZIMG_BUFFER_MAX;
}
static inline void reel_zimg_target_plane(zimg_image_buffer *buffer, int i, void *data, ptrdiff_t stride) {
    buffer->version = ZIMG_API_VERSION;
    buffer->plane[i].data = data;
    buffer->plane[i].stride = stride;
    buffer->plane[i].mask = ZIMG_BUFFER_MAX;
}
#endif
