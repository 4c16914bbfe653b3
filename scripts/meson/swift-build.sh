#!/bin/sh
# Meson's build step: SwiftPM builds reel, reel-tool and reel-thumbnailer into a scratch folder inside Meson's build
# folder, and the binaries are copied to the outputs Meson knows, which it then installs.
# usage: swift-build.sh SWIFT SOURCE-ROOT SCRATCH-PATH debug|release OUTPUT-FOLDER
set -eu
swift=$1 source=$2 scratch=$3 configuration=$4 out=$5
# The Swift runtime is linked in (as scripts/install-user.sh does): an installed Reel keeps
# working when the toolchain moves, and a system without a Swift toolchain can run it. One
# product after the other: two SwiftPM runs on one scratch folder would wait on its lock, and
# building both products at once would also build reel-bench, which is not installed.
for product in reel reel-tool reel-thumbnailer; do
  "$swift" build -c "$configuration" --static-swift-stdlib --package-path "$source" \
    --scratch-path "$scratch" --product "$product"
done
bin=$("$swift" build -c "$configuration" --static-swift-stdlib --package-path "$source" \
  --scratch-path "$scratch" --show-bin-path)
for product in reel reel-tool reel-thumbnailer; do
  # Copied only when it changed, so an unchanged build leaves Meson's outputs as they were.
  cmp -s "$bin/$product" "$out/$product" || cp -f "$bin/$product" "$out/$product"
done
