#!/usr/bin/env bash
# Times the CPU path's colour finisher (Sources/ReelMedia/Picture/RGBFinisher.swift) per
# pixel for each kind of colour plan, and the video equalizer's stage (EqualizerStage.swift). It compiles the engine's Foundation-only Picture/ sources
# with scripts/finisher-timing.swift, optimised and whole-module as `swift build -c release`
# compiles a module, which takes seconds instead of a release build of the whole engine.
#   scripts/finisher-timing.sh
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
# Top-level code compiles only from a file named main.swift.
cp "$root/scripts/finisher-timing.swift" "$out/main.swift"
swiftc -O -wmo -module-name ReelEngine -package-name reel -o "$out/finisher-timing" \
  "$root"/Sources/ReelMedia/Picture/*.swift "$root/Sources/ReelMedia/Values/PictureColour.swift" \
  "$root/Sources/ReelMedia/Values/Equalizer.swift" "$root/Sources/ReelMedia/Values/PixelFormat.swift" \
  "$root/Sources/ReelMedia/Values/PictureTransform.swift" \
  "$out/main.swift"
"$out/finisher-timing"
