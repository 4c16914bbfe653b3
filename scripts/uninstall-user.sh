#!/usr/bin/env bash
# Removes what scripts/install-user.sh installed (the files its manifest lists, nothing else)
# and refreshes the caches that still list Reel. Running it again does nothing.
set -euo pipefail

usage() {
  echo "usage: scripts/uninstall-user.sh [--prefix DIR]"
  echo "  --prefix DIR   the prefix Reel was installed under (default: \$PREFIX, else ~/.local)"
}

prefix=${PREFIX:-$HOME/.local}
while [ $# -gt 0 ]; do
  case $1 in
    --prefix) prefix=${2:?--prefix needs a directory}; shift 2 ;;
    --prefix=*) prefix=${1#*=}; shift ;;
    -h | --help) usage; exit 0 ;;
    *) echo "uninstall-user.sh: unknown option $1" >&2; usage >&2; exit 2 ;;
  esac
done
share=$prefix/share
manifest=$share/reel/installed-files
if [ ! -f "$manifest" ]; then
  echo "Reel is not installed in $prefix"
  exit 0
fi

while IFS= read -r file; do
  # Only paths the installer writes: relative, inside the prefix.
  case $file in
    "" | /* | *..*) echo "uninstall-user.sh: skipping odd manifest entry '$file'" >&2 ;;
    *) rm -f "$prefix/$file" ;;
  esac
done <"$manifest"
# Reel's own folders go; shared ones (bin, applications, icons…) stay.
rmdir "$share/reel/ui" "$share/reel" 2>/dev/null || true

refresh() {  # refresh TOOL ARGUMENT...
  if command -v "$1" >/dev/null 2>&1; then "$@"; else echo "note: $1 not found; its cache was not refreshed" >&2; fi
}
# glib-compile-schemas leaves the old compiled file alone when no schema is left, and that
# file would still describe Reel's settings.
schemas=$share/glib-2.0/schemas
if [ -d "$schemas" ]; then
  if compgen -G "$schemas/*.gschema.xml" >/dev/null; then
    refresh glib-compile-schemas "$schemas"
  else
    rm -f "$schemas/gschemas.compiled"
  fi
fi
if [ -d "$share/applications" ]; then refresh update-desktop-database -q "$share/applications"; fi
icon_cache=gtk-update-icon-cache
command -v $icon_cache >/dev/null 2>&1 || icon_cache=gtk4-update-icon-cache
if [ -d "$share/icons/hicolor" ]; then refresh $icon_cache -q -t -f "$share/icons/hicolor"; fi

echo "Reel is uninstalled from $prefix"
