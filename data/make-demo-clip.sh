#!/usr/bin/env bash
# Regenerates data/demo/reel-demo.mp4 from FFmpeg's lavfi sources: 12 s of 1280x720 30 fps
# H.264 (2 s GOP, B-frames) with a stereo AAC arpeggio whose notes start on each whole second,
# under the test pattern's own frame counter, so A/V sync can be judged by eye and ear.
set -euo pipefail
out="${1:-$(dirname "$0")/demo/reel-demo.mp4}"
mkdir -p "$(dirname "$out")"
ffmpeg -hide_banner -loglevel error -y \
  -f lavfi -i "testsrc2=size=1280x720:rate=30:duration=12" \
  -f lavfi -i "aevalsrc=0.25*exp(-4*mod(t\,1))*sin(2*PI*220*pow(2\,mod(floor(t)\,4)*4/12)*t)|0.25*exp(-4*mod(t\,1))*sin(2*PI*330*pow(2\,mod(floor(t)\,4)*4/12)*t):sample_rate=48000:duration=12" \
  -map 0:v -map 1:a \
  -vf "scale=out_color_matrix=bt709:out_range=tv" \
  -colorspace bt709 -color_primaries bt709 -color_trc bt709 -color_range tv \
  -c:v libx264 -preset slow -crf 28 -g 60 -bf 2 -pix_fmt yuv420p -profile:v high \
  -c:a aac -b:a 128k \
  -metadata title="Reel demo clip" \
  -movflags +faststart "$out"
echo "wrote $out ($(du -h "$out" | cut -f1))"
