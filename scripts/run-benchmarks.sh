#!/usr/bin/env bash
# Runs the benchmarks of BENCHMARKS.md with --compare on a release build and prints one JSON
# line per benchmark (progress goes to stderr). Makes the benchmark file if it is missing.
# `reel-bench play` and `reel-bench window` need a PulseAudio server: see BENCHMARKS.md for a private
# null-sink one. `reel-bench window` opens real windows and needs an X display; without DISPLAY it
# is skipped with a note. On a machine without a display, run the script under Xvfb.
#   scripts/run-benchmarks.sh [FILE]
#   xvfb-run -s "-screen 0 1920x1080x24" scripts/run-benchmarks.sh [FILE]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
file="${1:-$root/.build-bench-media/bench-1080p30-60s.mp4}"
[ -f "$file" ] || "$root/scripts/make-bench-file.sh" "$file" >&2
cd "$root"
# All four products: reel-bench runs the reel-tool (startup, play, queue), the reel app
# (window) and reel-thumbnailer (thumbnail) built beside it.
swift build -c release --product reel-bench >&2
swift build -c release --product reel-tool >&2
swift build -c release --product reel >&2
swift build -c release --product reel-thumbnailer >&2
bench_tool="$root/.build/release/reel-bench"
for bench in decode seek step scrub click startup play level preview queue thumbnail window; do
  if [ "$bench" = window ] && [ -z "${DISPLAY:-}" ]; then
    echo "run-benchmarks: skipping reel-bench window: DISPLAY is unset (run under xvfb-run -s \"-screen 0 1920x1080x24\")" >&2
    continue
  fi
  "$bench_tool" "$bench" "$file" --compare
done
