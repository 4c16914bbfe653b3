#!/usr/bin/env bash
# Generates the benchmark file from FFmpeg's lavfi sources: 60 s of 1920x1080 30 fps H.264 High
# (2 s GOP: a key frame every 60 frames, no scene-cut key frames; 3 B-frames) at about 8 Mb/s,
# with 48 kHz stereo AAC. The file is large and reproducible, so it is never committed: the
# default output sits under .build-bench-media/, which .gitignore covers.
#   scripts/make-bench-file.sh [OUT]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:-$root/.build-bench-media/bench-1080p30-60s.mp4}"
mkdir -p "$(dirname "$out")"
ffmpeg -hide_banner -loglevel error -y \
  -f lavfi -i "testsrc2=size=1920x1080:rate=30:duration=60" \
  -f lavfi -i "aevalsrc=0.2*sin(2*PI*440*t)|0.2*sin(2*PI*660*t):sample_rate=48000:channel_layout=stereo:duration=60" \
  -map 0:v -map 1:a \
  -vf "scale=out_color_matrix=bt709:out_range=tv" \
  -colorspace bt709 -color_primaries bt709 -color_trc bt709 -color_range tv \
  -c:v libx264 -preset medium -profile:v high -pix_fmt yuv420p \
  -b:v 8M -maxrate 10M -bufsize 16M \
  -g 60 -keyint_min 60 -sc_threshold 0 -bf 3 \
  -c:a aac -b:a 160k -ar 48000 -ac 2 \
  -metadata title="Reel benchmark file" \
  -movflags +faststart "$out"
echo "wrote $out ($(du -h "$out" | cut -f1))"
