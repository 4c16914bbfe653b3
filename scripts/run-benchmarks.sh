#!/usr/bin/env bash
# Runs the benchmarks of BENCHMARKS.md with --compare on a release build and prints one JSON
# line per benchmark (progress goes to stderr). Makes the benchmark file if it is missing.
# `bench play` and `bench window` need a PulseAudio server: see BENCHMARKS.md for a private
# null-sink one. `bench window` opens real windows and needs an X display; without DISPLAY it
# is skipped with a note. On a machine without a display, run the script under Xvfb.
#   scripts/run-benchmarks.sh [FILE]
#   xvfb-run -s "-screen 0 1920x1080x24" scripts/run-benchmarks.sh [FILE]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
file="${1:-$root/.build-bench-media/bench-1080p30-60s.mp4}"
[ -f "$file" ] || "$root/scripts/make-bench-file.sh" "$file" >&2
cd "$root"
# Both products: bench window runs the reel app built beside reel-tool.
swift build -c release --product reel-tool >&2
swift build -c release --product reel >&2
tool="$root/.build/release/reel-tool"
for bench in decode seek step scrub startup play preview queue window; do
  if [ "$bench" = window ] && [ -z "${DISPLAY:-}" ]; then
    echo "run-benchmarks: skipping bench window: DISPLAY is unset (run under xvfb-run -s \"-screen 0 1920x1080x24\")" >&2
    continue
  fi
  "$tool" bench "$bench" "$file" --compare
done
