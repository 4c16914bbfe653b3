// FFmpeg for Swift: the headers Reel uses, plus the macros Swift cannot import, re-exported as
// static inline functions. Everything FFmpeg-specific that Swift needs from C goes through here.
#ifndef REEL_CFFMPEG_SHIM_H
#define REEL_CFFMPEG_SHIM_H

#include <libavformat/avformat.h>
#include <libavformat/avio.h>
#include <libavcodec/avcodec.h>
#include <libavutil/avutil.h>
#include <libavutil/imgutils.h>
#include <libavutil/md5.h>
#include <libavutil/opt.h>
#include <libavutil/pixdesc.h>
#include <libavutil/channel_layout.h>
#include <libavutil/samplefmt.h>
#include <libavutil/audio_fifo.h>
#include <libavutil/display.h>
#include <libavutil/mastering_display_metadata.h>
#include <libavutil/dovi_meta.h>
#include <libavutil/dict.h>
#include <libavutil/error.h>
#include <libavutil/log.h>
#include <libswscale/swscale.h>
#include <libswresample/swresample.h>
#include <libavfilter/avfilter.h>
#include <libavfilter/buffersink.h>
#include <libavfilter/buffersrc.h>
#include <errno.h>
#include <stdint.h>

static inline int reel_averror(int posix_errno) { return AVERROR(posix_errno); }
static inline int reel_averror_eof(void) { return AVERROR_EOF; }
static inline int reel_averror_eagain(void) { return AVERROR(EAGAIN); }
static inline int reel_averror_exit(void) { return AVERROR_EXIT; }
static inline int reel_averror_invaliddata(void) { return AVERROR_INVALIDDATA; }
static inline int reel_averror_decoder_not_found(void) { return AVERROR_DECODER_NOT_FOUND; }
static inline int reel_averror_demuxer_not_found(void) { return AVERROR_DEMUXER_NOT_FOUND; }
static inline int reel_averror_protocol_not_found(void) { return AVERROR_PROTOCOL_NOT_FOUND; }
static inline int reel_averror_stream_not_found(void) { return AVERROR_STREAM_NOT_FOUND; }
static inline int reel_averror_http_bad_request(void) { return AVERROR_HTTP_BAD_REQUEST; }
static inline int reel_averror_http_unauthorized(void) { return AVERROR_HTTP_UNAUTHORIZED; }
static inline int reel_averror_http_forbidden(void) { return AVERROR_HTTP_FORBIDDEN; }
static inline int reel_averror_http_not_found(void) { return AVERROR_HTTP_NOT_FOUND; }
static inline int reel_averror_http_other_4xx(void) { return AVERROR_HTTP_OTHER_4XX; }
static inline int reel_averror_http_server_error(void) { return AVERROR_HTTP_SERVER_ERROR; }

static inline int reel_probe_score_retry(void) { return AVPROBE_SCORE_RETRY; }
static inline int64_t reel_nopts_value(void) { return AV_NOPTS_VALUE; }
static inline AVRational reel_time_base_q(void) { return AV_TIME_BASE_Q; }
static inline int reel_av_time_base(void) { return AV_TIME_BASE; }

// AVFrame.pkt_duration is deprecated in newer FFmpeg (replaced by AVFrame.duration); reading it
// through one function keeps the deprecation in one place.
static inline int64_t reel_frame_duration(const AVFrame *frame) {
#if LIBAVUTIL_VERSION_MAJOR >= 58
    return frame->duration;
#else
    return frame->pkt_duration;
#endif
}

// Key frame flag moved from a field to a flag in later FFmpeg versions.
static inline int reel_frame_is_key(const AVFrame *frame) {
#ifdef AV_FRAME_FLAG_KEY
    return (frame->flags & AV_FRAME_FLAG_KEY) != 0;
#else
    return frame->key_frame;
#endif
}

// Side data of a frame or a stream, as a pointer to its payload (NULL when absent or too small
// for the record): av_stream_get_side_data is deprecated from FFmpeg 6.1 on (codecpar's coded
// side data replaces it), so the stream's lookup stays here, in one place.
static inline const void *reel_frame_side_data(const AVFrame *frame, enum AVFrameSideDataType type, size_t size) {
    const AVFrameSideData *sd = av_frame_get_side_data(frame, type);
    return sd && sd->size >= size ? sd->data : NULL;
}

static inline const void *reel_stream_side_data(const AVStream *stream, enum AVPacketSideDataType type, size_t size) {
#if LIBAVCODEC_VERSION_INT >= AV_VERSION_INT(60, 29, 100)
    const AVPacketSideData *sd = av_packet_side_data_get(stream->codecpar->coded_side_data,
                                                         stream->codecpar->nb_coded_side_data, type);
    return sd && sd->size >= size ? sd->data : NULL;
#else
    size_t found = 0;
    const uint8_t *data = av_stream_get_side_data(stream, type, &found);
    return data && found >= size ? data : NULL;
#endif
}

static inline int reel_packet_is_key(const AVPacket *pkt) { return (pkt->flags & AV_PKT_FLAG_KEY) != 0; }
static inline int reel_packet_is_corrupt(const AVPacket *pkt) { return (pkt->flags & AV_PKT_FLAG_CORRUPT) != 0; }
static inline int reel_packet_is_disposable(const AVPacket *pkt) { return (pkt->flags & AV_PKT_FLAG_DISPOSABLE) != 0; }

static inline const char *reel_error_string(int code, char *buf, size_t size) {
    return av_make_error_string(buf, size, code);
}

// Deinterlacing: how a decoded frame's fields are ordered. The fields moved into AVFrame.flags in
// FFmpeg 6.1; one function keeps that in one place. 0: progressive, 1: top field first,
// 2: bottom field first.
static inline int reel_frame_field_order(const AVFrame *frame) {
#ifdef AV_FRAME_FLAG_INTERLACED
    if (!(frame->flags & AV_FRAME_FLAG_INTERLACED)) return 0;
    return (frame->flags & AV_FRAME_FLAG_TOP_FIELD_FIRST) ? 1 : 2;
#else
    if (!frame->interlaced_frame) return 0;
    return frame->top_field_first ? 1 : 2;
#endif
}

#endif
