#!/usr/bin/env bash
# Checks an installed Reel (meson install --destdir DESTDIR, prefix PREFIX): every file Reel
# installs is there and nothing else is, the D-Bus service names the installed binary, the
# binaries find all their libraries, the installed reel, reel-tool and reel-thumbnailer run from
# DESTDIR, and the thumbnailer file names the installed thumbnailer.
# usage: scripts/check-install-tree.sh DESTDIR PREFIX
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: scripts/check-install-tree.sh DESTDIR PREFIX" >&2; exit 2; }
root=$(cd "$(dirname "$0")/.." && pwd)
destdir=$(cd "$1" && pwd)
prefix=$2
tree=$destdir$prefix
id=io.github.reel.Reel
problems=0
problem() { echo "check-install-tree: $*" >&2; problems=$((problems + 1)); }

expected=(
  bin/reel
  bin/reel-tool
  bin/reel-thumbnailer
  share/thumbnailers/$id.thumbnailer
  share/man/man1/reel.1
  share/man/man1/reel-tool.1
  share/man/man1/reel-thumbnailer.1
  share/reel/style.css
  share/applications/$id.desktop
  share/metainfo/$id.metainfo.xml
  share/glib-2.0/schemas/$id.gschema.xml
  share/dbus-1/services/$id.service
  share/icons/hicolor/scalable/apps/$id.svg
  share/icons/hicolor/symbolic/apps/$id-symbolic.svg
)
# Every window file in the source tree: one added to data/ui but not to meson.build is missed here.
for ui in "$root"/data/ui/*.ui; do expected+=("share/reel/ui/$(basename "$ui")"); done
# Every language of po/LINGUAS, compiled.
while read -r lang; do
  [ -n "$lang" ] && expected+=("share/locale/$lang/LC_MESSAGES/reel.mo")
done <"$root/po/LINGUAS"

for file in "${expected[@]}"; do
  [ -s "$tree/$file" ] || problem "missing or empty: $prefix/$file"
done
for program in reel reel-tool reel-thumbnailer; do
  [ -x "$tree/bin/$program" ] || problem "not executable: $prefix/bin/$program"
done
# Nothing else: not reel-bench, reel-widget-example or the demo clip. The caches are absent too,
# as Meson does not refresh them when installing into a DESTDIR.
declare -A listed=()
for file in "${expected[@]}"; do listed[$file]=1; done
while IFS= read -r file; do
  relative=${file#"$tree/"}
  [ -n "${listed[$relative]:-}" ] || problem "not expected: ${file#"$destdir"}"
done < <(find "$destdir" \( -type f -o -type l \))
[ -d "$tree" ] || problem "nothing under $prefix in $destdir"

# The desktop file and the metainfo carry the translations (the first language stands for all).
first_lang=$(grep -m1 . "$root/po/LINGUAS")
if [ -f "$tree/share/applications/$id.desktop" ]; then
  grep -q "^Comment\\[$first_lang\\]=" "$tree/share/applications/$id.desktop" \
    || problem "the desktop file has no Comment[$first_lang]"
fi
if [ -f "$tree/share/metainfo/$id.metainfo.xml" ]; then
  grep -q "<summary xml:lang=\"$first_lang\">" "$tree/share/metainfo/$id.metainfo.xml" \
    || problem "the metainfo has no summary in $first_lang"
fi

service=$tree/share/dbus-1/services/$id.service
if [ -f "$service" ]; then
  grep -qxF "Name=$id" "$service" || problem "the D-Bus service is not named $id"
  grep -qxF "Exec=$prefix/bin/reel --gapplication-service" "$service" || problem "the D-Bus service does not start $prefix/bin/reel"
fi

for program in reel reel-tool reel-thumbnailer; do
  [ -x "$tree/bin/$program" ] || continue
  missing=$(ldd "$tree/bin/$program" | grep 'not found' || true)
  [ -z "$missing" ] || problem "$program lacks libraries: $missing"
done
# The version the binary reports is the one Meson installed as the project's.
version=$(sed -n 's/.*static let string = "\(.*\)".*/\1/p' "$root/Sources/ReelMedia/Support/ReelVersion.swift")
if [ -x "$tree/bin/reel" ]; then
  answer=$("$tree/bin/reel" --version 2>&1) || problem "reel --version failed: $answer"
  [ "$answer" = "reel $version" ] || problem "reel --version says '$answer', not 'reel $version'"
fi
if [ -x "$tree/bin/reel-tool" ]; then
  help=$("$tree/bin/reel-tool" --help 2>&1) || problem "reel-tool --help failed: $help"
  grep -qE '^ +info ' <<<"$help" || problem "reel-tool --help lists no info command: $help"
  answer=$("$tree/bin/reel-tool" --version 2>&1) || problem "reel-tool --version failed: $answer"
  [ "$answer" = "$version" ] || problem "reel-tool --version says '$answer', not '$version'"
fi

# The thumbnailer file runs the installed program the way file managers do (by name, found on
# the PATH, which inside GNOME's sandbox is /usr's), and the program makes a PNG of the demo clip.
thumbnailer=$tree/share/thumbnailers/$id.thumbnailer
if [ -f "$thumbnailer" ]; then
  grep -qxF "TryExec=reel-thumbnailer" "$thumbnailer" || problem "the thumbnailer file's TryExec is not reel-thumbnailer"
  grep -qxF "Exec=reel-thumbnailer -s %s %u %o" "$thumbnailer" || problem "the thumbnailer file's Exec is not reel-thumbnailer -s %s %u %o"
  grep -q "^MimeType=video/" "$thumbnailer" || problem "the thumbnailer file lists no video types"
fi
if [ -x "$tree/bin/reel-thumbnailer" ]; then
  answer=$("$tree/bin/reel-thumbnailer" --version 2>&1) || problem "reel-thumbnailer --version failed: $answer"
  [ "$answer" = "$version" ] || problem "reel-thumbnailer --version says '$answer', not '$version'"
  png=$(mktemp -d)
  if "$tree/bin/reel-thumbnailer" -s 128 "$root/data/demo/reel-demo.mp4" "$png/demo.png"; then
    head -c 8 "$png/demo.png" | od -An -c | grep -q 'P   N   G' || problem "reel-thumbnailer wrote no PNG for the demo clip"
  else
    problem "reel-thumbnailer failed on the demo clip"
  fi
  rm -rf "$png"
fi

if [ $problems -gt 0 ]; then
  echo "check-install-tree: $problems problems in $destdir$prefix" >&2
  exit 1
fi
echo "check-install-tree: ${#expected[@]} files under $destdir$prefix, as expected"
