#!/usr/bin/env bash
# Generates the benchmark files from FFmpeg's lavfi sources. The files are large and reproducible,
# so they are never committed: the default outputs sit under .build-bench-media/, which .gitignore
# covers.
#   scripts/make-bench-file.sh [OUT]          60 s of 1920x1080 30 fps H.264 High (2 s GOP: a key
#       frame every 60 frames, no scene-cut key frames; 3 B-frames) at about 8 Mb/s, 48 kHz stereo AAC
#   scripts/make-bench-file.sh --hdr10 [OUT]  30 s of 1920x1080 24 fps HEVC Main 10, PQ/BT.2020,
#       with mastering display (1000 cd/m²) and content light metadata, as a 4K film's HDR10 is tagged
#   scripts/make-bench-file.sh --576i [OUT]   30 s of 720x576 25i H.264 (interlaced coding, top
#       field first, 16:9) with motion, as a DVB recording, with 48 kHz stereo AAC
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
kind=sdr
case "${1:-}" in --hdr10) kind=hdr10; shift ;; --576i) kind=576i; shift ;; esac
media="$root/.build-bench-media"
tone="aevalsrc=0.2*sin(2*PI*440*t)|0.2*sin(2*PI*660*t):sample_rate=48000:channel_layout=stereo"
case "$kind" in
sdr)
  out="${1:-$media/bench-1080p30-60s.mp4}"; mkdir -p "$(dirname "$out")"
  ffmpeg -hide_banner -loglevel error -y \
    -f lavfi -i "testsrc2=size=1920x1080:rate=30:duration=60" -f lavfi -i "$tone:duration=60" \
    -map 0:v -map 1:a \
    -vf "scale=out_color_matrix=bt709:out_range=tv" \
    -colorspace bt709 -color_primaries bt709 -color_trc bt709 -color_range tv \
    -c:v libx264 -preset medium -profile:v high -pix_fmt yuv420p \
    -b:v 8M -maxrate 10M -bufsize 16M \
    -g 60 -keyint_min 60 -sc_threshold 0 -bf 3 \
    -c:a aac -b:a 160k -ar 48000 -ac 2 \
    -metadata title="Reel benchmark file" \
    -movflags +faststart "$out" ;;
hdr10)
  # The SDR source to linear light with reference white at 203 cd/m² (BT.2408), then PQ/BT.2020.
  out="${1:-$media/bench-1080p24-hdr10-30s.mkv}"; mkdir -p "$(dirname "$out")"
  ffmpeg -hide_banner -loglevel error -y \
    -f lavfi -i "testsrc2=size=1920x1080:rate=24:duration=30,format=gbrp" -f lavfi -i "$tone:duration=30" \
    -map 0:v -map 1:a \
    -vf "zscale=tin=bt709:pin=bt709:min=gbr:rin=full:t=linear:p=bt709:m=gbr:r=full:npl=203,format=gbrpf32le,zscale=t=smpte2084:p=bt2020:m=bt2020nc:r=limited:npl=203,format=yuv420p10le" \
    -c:v libx265 -preset ultrafast -pix_fmt yuv420p10le \
    -x265-params "log-level=error:keyint=48:min-keyint=48:scenecut=0:bitrate=8000:vbv-maxrate=10000:vbv-bufsize=16000:colorprim=bt2020:transfer=smpte2084:colormatrix=bt2020nc:range=limited:hdr10=1:master-display=G(13250,34500)B(7500,3000)R(34000,16000)WP(15635,16450)L(10000000,50):max-cll=1000,400" \
    -color_primaries bt2020 -color_trc smpte2084 -colorspace bt2020nc -color_range tv \
    -c:a aac -b:a 160k -ar 48000 -ac 2 \
    -metadata title="Reel HDR10 benchmark file" "$out" ;;
576i)
  out="${1:-$media/bench-576i25-30s.mkv}"; mkdir -p "$(dirname "$out")"
  ffmpeg -hide_banner -loglevel error -y \
    -f lavfi -i "testsrc2=size=720x576:rate=50:duration=30" -f lavfi -i "$tone:duration=30" \
    -map 0:v -map 1:a \
    -vf "tinterlace=mode=interleave_top,setfield=tff,format=yuv420p" \
    -colorspace bt470bg -color_primaries bt470bg -color_trc bt709 -color_range tv \
    -c:v libx264 -preset medium -b:v 5M -g 12 -flags +ildct+ilme -x264-params tff=1 -aspect 16:9 \
    -c:a aac -b:a 160k -ar 48000 -ac 2 \
    -metadata title="Reel 576i benchmark file" "$out" ;;
esac
echo "wrote $out ($(du -h "$out" | cut -f1))"
