#!/usr/bin/env bash
# Installs Reel for the current user: the reel, reel-tool and reel-thumbnailer binaries (with
# their manual pages, when help2man is there), the file managers' thumbnailer file, the window's data files,
# the desktop file, the AppStream metainfo (both with their translations merged in), the
# translations, the icons and the GSettings schema, then refreshes
# the caches the desktop reads them from. Running it again updates the installation;
# scripts/uninstall-user.sh removes it. Options: see usage below.
set -euo pipefail

usage() {
  echo "usage: scripts/install-user.sh [--prefix DIR] [--no-build] [--bin-dir DIR]"
  echo "  --prefix DIR   install under DIR (default: \$PREFIX, else ~/.local)"
  echo "  --no-build     install the binaries already built in .build/release"
  echo "  --bin-dir DIR  install the binaries already built in DIR (implies --no-build)"
}

root=$(cd "$(dirname "$0")/.." && pwd)
prefix=${PREFIX:-$HOME/.local}
build=yes
bin_dir=$root/.build/release
while [ $# -gt 0 ]; do
  case $1 in
    --prefix) prefix=${2:?--prefix needs a directory}; shift 2 ;;
    --prefix=*) prefix=${1#*=}; shift ;;
    --no-build) build=no; shift ;;
    --bin-dir) bin_dir=${2:?--bin-dir needs a directory}; build=no; shift 2 ;;
    --bin-dir=*) bin_dir=${1#*=}; build=no; shift ;;
    -h | --help) usage; exit 0 ;;
    *) echo "install-user.sh: unknown option $1" >&2; usage >&2; exit 2 ;;
  esac
done
# The prefix goes into the desktop file's Exec line, where these characters need escaping
# rules of their own; no sensible prefix has them.
case $prefix in
  *[\"\`\$\\%]* | "") echo "install-user.sh: unusable prefix '$prefix'" >&2; exit 2 ;;
esac
mkdir -p "$prefix"
prefix=$(cd "$prefix" && pwd)
share=$prefix/share

if [ $build = yes ]; then
  # The Swift runtime is linked in, so the installed binary keeps working when the toolchain
  # moves or is upgraded.
  (cd "$root" && swift build -c release --static-swift-stdlib --product reel \
    && swift build -c release --static-swift-stdlib --product reel-tool \
    && swift build -c release --static-swift-stdlib --product reel-thumbnailer)
fi
for program in reel reel-tool reel-thumbnailer; do
  [ -x "$bin_dir/$program" ] || { echo "install-user.sh: no $bin_dir/$program (build it, or drop --no-build)" >&2; exit 1; }
done

# Every installed file is listed, relative to the prefix, in a manifest: the uninstaller
# removes exactly these, and a reinstall removes what an older version installed and this
# one no longer does.
manifest=$share/reel/installed-files
new_manifest=$(mktemp)
trap 'rm -f "$new_manifest"' EXIT
put() {  # put MODE SOURCE DESTINATION-RELATIVE-TO-PREFIX
  install -D -m "$1" "$2" "$prefix/$3"
  echo "$3" >>"$new_manifest"
}

put 755 "$bin_dir/reel" bin/reel
put 755 "$bin_dir/reel-tool" bin/reel-tool
put 755 "$bin_dir/reel-thumbnailer" bin/reel-thumbnailer
# The window's files, where DataDirectory looks beside an installed binary.
for ui in "$root"/data/ui/*.ui; do put 644 "$ui" "share/reel/ui/$(basename "$ui")"; done
put 644 "$root/data/style.css" share/reel/style.css
put 644 "$root/data/io.github.reel.Reel.gschema.xml" share/glib-2.0/schemas/io.github.reel.Reel.gschema.xml
# Translations: each language of po/LINGUAS compiled where gettext looks beside the binary
# (LocaleDirectory: ../share/locale), and merged into the metainfo and the desktop file.
merged=$(mktemp -d)
trap 'rm -f "$new_manifest"; rm -rf "$merged"' EXIT
while read -r lang; do
  [ -n "$lang" ] || continue
  msgfmt --check -o "$merged/$lang.mo" "$root/po/$lang.po"
  put 644 "$merged/$lang.mo" "share/locale/$lang/LC_MESSAGES/reel.mo"
done <"$root/po/LINGUAS"
msgfmt --xml --template "$root/data/io.github.reel.Reel.metainfo.xml" -d "$root/po" -o "$merged/metainfo.xml"
put 644 "$merged/metainfo.xml" share/metainfo/io.github.reel.Reel.metainfo.xml
msgfmt --desktop --template "$root/data/io.github.reel.Reel.desktop" -d "$root/po" -o "$merged/reel.desktop"
put 644 "$root/icons/hicolor/scalable/apps/io.github.reel.Reel.svg" \
  share/icons/hicolor/scalable/apps/io.github.reel.Reel.svg
put 644 "$root/icons/hicolor/symbolic/apps/io.github.reel.Reel-symbolic.svg" \
  share/icons/hicolor/symbolic/apps/io.github.reel.Reel-symbolic.svg
# The desktop file names the installed binary by its full path: ~/.local/bin is not on the
# PATH of every desktop session, and a TryExec that is not found hides the application.
desktop=share/applications/io.github.reel.Reel.desktop
mkdir -p "$share/applications"
sed -e "s|^Exec=reel |Exec=\"$prefix/bin/reel\" |" -e "s|^TryExec=reel\$|TryExec=$prefix/bin/reel|" \
  "$merged/reel.desktop" >"$prefix/$desktop.tmp"
chmod 644 "$prefix/$desktop.tmp"
mv "$prefix/$desktop.tmp" "$prefix/$desktop"
echo "$desktop" >>"$new_manifest"

# The file managers' thumbnailer, naming the installed program by its full path as the desktop
# file does (~/.local/bin is not on every session's PATH).
thumbnailer=share/thumbnailers/io.github.reel.Reel.thumbnailer
mkdir -p "$share/thumbnailers"
sed -e "s|^TryExec=reel-thumbnailer\$|TryExec=$prefix/bin/reel-thumbnailer|" \
  -e "s|^Exec=reel-thumbnailer |Exec=\"$prefix/bin/reel-thumbnailer\" |" \
  "$root/data/io.github.reel.Reel.thumbnailer" >"$prefix/$thumbnailer.tmp"
chmod 644 "$prefix/$thumbnailer.tmp"
mv "$prefix/$thumbnailer.tmp" "$prefix/$thumbnailer"
echo "$thumbnailer" >>"$new_manifest"

# Manual pages from the binaries' own help, as Meson makes them (man finds share/man beside a
# bin folder on the PATH).
if command -v help2man >/dev/null 2>&1; then
  while read -r program name; do
    LC_ALL=C.UTF-8 LANGUAGE= help2man --no-info --locale C.UTF-8 --version-string "$(sed -n 's/.*static let string = "\(.*\)".*/\1/p' \
      "$root/Sources/ReelMedia/Support/ReelVersion.swift")" --name "$name" --output "$merged/$program.1" "$bin_dir/$program"
    put 644 "$merged/$program.1" "share/man/man1/$program.1"
  done <<'PAGES'
reel play video and sound from files and web addresses
reel-tool inspect, decode and play media with Reel's engine
reel-thumbnailer write a PNG thumbnail of a video for file managers
PAGES
else
  echo "note: help2man not found; the manual pages were not made" >&2
fi

# D-Bus activation (the desktop file's DBusActivatable): the session bus starts the installed
# binary by its full path, which it does not look up on any PATH.
service=share/dbus-1/services/io.github.reel.Reel.service
mkdir -p "$share/dbus-1/services"
sed -e "s|^Exec=@bindir@/reel |Exec=\"$prefix/bin/reel\" |" "$root/data/io.github.reel.Reel.service.in" >"$prefix/$service.tmp"
chmod 644 "$prefix/$service.tmp"
mv "$prefix/$service.tmp" "$prefix/$service"
echo "$service" >>"$new_manifest"

echo "share/reel/installed-files" >>"$new_manifest"
if [ -f "$manifest" ]; then
  { grep -vxF -f "$new_manifest" "$manifest" || true; } | while IFS= read -r old; do rm -f "$prefix/$old"; done
fi
install -m 644 "$new_manifest" "$manifest"

# The caches: compiled schemas (GSettings reads nothing else), the MIME-type-to-application
# index, and the icon cache. Without a tool the files are installed but may go unseen until
# something else refreshes that cache.
refresh() {  # refresh TOOL ARGUMENT...
  if command -v "$1" >/dev/null 2>&1; then "$@"; else echo "note: $1 not found; its cache was not refreshed" >&2; fi
}
refresh glib-compile-schemas "$share/glib-2.0/schemas"
refresh update-desktop-database -q "$share/applications"
icon_cache=gtk-update-icon-cache
command -v $icon_cache >/dev/null 2>&1 || icon_cache=gtk4-update-icon-cache
# -t: a user's hicolor folder has no index.theme of its own.
refresh $icon_cache -q -t -f "$share/icons/hicolor"

echo "Reel is installed in $prefix"
case ":${XDG_DATA_HOME:-$HOME/.local/share}:${XDG_DATA_DIRS:-/usr/local/share:/usr/share}:" in
  *":$share:"* | *":$share/:"*) ;;
  *) echo "note: $share is not in XDG_DATA_HOME or XDG_DATA_DIRS, so the desktop will not list Reel" >&2 ;;
esac
# GNOME's Files runs thumbnailers in a sandbox that sees /usr and nothing of a home folder, so it
# uses reel-thumbnailer only from a /usr installation (Meson); file managers that run them as
# they are (Xfce's tumbler, for one) use this one.
case $prefix in
  /usr) ;;
  *) echo "note: GNOME Files sandboxes thumbnailers to /usr, so it will not use $prefix/bin/reel-thumbnailer (install with Meson into /usr for that)" >&2 ;;
esac
case ":$PATH:" in
  *":$prefix/bin:"*) ;;
  *) echo "note: $prefix/bin is not on PATH; run Reel as $prefix/bin/reel or from the desktop" >&2 ;;
esac
