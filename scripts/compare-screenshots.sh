#!/usr/bin/env bash
# Compares two folders of screenshots (scripts/screenshot-walk.sh's) picture by picture: for
# each PNG in both, its name and the PSNR between them (ImageMagick), marked when below the
# threshold: a quick check that two builds look the same. "inf" means identical pixels.
#
# Usage: scripts/compare-screenshots.sh DIR_A DIR_B [THRESHOLD_DB]   (default 30)
# Exits 1 when a picture is below the threshold or differs in size, or is in one folder only.
set -euo pipefail
[ $# -ge 2 ] && [ $# -le 3 ] || { echo "usage: $0 DIR_A DIR_B [THRESHOLD_DB]" >&2; exit 2; }
a=$1 b=$2 threshold=${3:-30}
command -v compare >/dev/null || { echo "$0: ImageMagick's compare is missing: scripts/install-deps.sh installs it" >&2; exit 1; }
status=0
shopt -s nullglob
for path in "$a"/*.png; do
  name=$(basename "$path")
  if [ ! -f "$b/$name" ]; then
    printf '%-36s only in %s\n' "$name" "$a"; status=1; continue
  fi
  if [ "$(identify -format '%wx%h' "$path")" != "$(identify -format '%wx%h' "$b/$name")" ]; then
    printf '%-36s sizes differ  <<< DIFFERENT\n' "$name"; status=1; continue
  fi
  # compare prints the metric on stderr and exits 1 when the pictures differ.
  psnr=$(compare -metric PSNR "$path" "$b/$name" null: 2>&1 >/dev/null || true)
  psnr=${psnr%% *}
  mark=""
  if [ "$psnr" != inf ] && awk -v p="$psnr" -v t="$threshold" 'BEGIN { exit !(p + 0 < t) }'; then
    mark="  <<< below ${threshold} dB"; status=1
  fi
  printf '%-36s %8s dB%s\n' "$name" "$psnr" "$mark"
done
for path in "$b"/*.png; do
  [ -f "$a/$(basename "$path")" ] || { printf '%-36s only in %s\n' "$(basename "$path")" "$b"; status=1; }
done
exit $status
