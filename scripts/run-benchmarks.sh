#!/usr/bin/env bash
# Runs the four benchmarks of BENCHMARKS.md with --compare on a release build and prints one
# JSON line per benchmark (progress goes to stderr). Makes the benchmark file if it is missing.
# `bench play` needs a PulseAudio server: see BENCHMARKS.md for a private null-sink one.
#   scripts/run-benchmarks.sh [FILE]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
file="${1:-$root/.build-bench-media/bench-1080p30-60s.mp4}"
[ -f "$file" ] || "$root/scripts/make-bench-file.sh" "$file" >&2
cd "$root"
swift build -c release --product reel-tool >&2
tool="$root/.build/release/reel-tool"
for bench in decode seek startup play; do
  "$tool" bench "$bench" "$file" --compare
done
