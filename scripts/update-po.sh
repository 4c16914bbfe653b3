#!/usr/bin/env bash
# Makes po/reel.pot from the files po/POTFILES.in lists: the Swift sources' tr("…") and
# trn("…", "…", n) (xgettext reads Swift as C: the marked strings are plain literals), the
# GtkBuilder files' translatable="yes" texts, the desktop file and the AppStream metainfo.
# `--merge` then brings each po/<lang>.po of po/LINGUAS up to date with msgmerge.
# `scripts/update-po.sh --output FILE` writes the template elsewhere (the tests compare it).
set -euo pipefail
cd "$(dirname "$0")/.."

output=po/reel.pot
merge=false
while [ $# -gt 0 ]; do
    case "$1" in
        --merge) merge=true ;;
        --output) output=$2; shift ;;
        *) echo "usage: $0 [--merge] [--output FILE]" >&2; exit 2 ;;
    esac
    shift
done

version=$(sed -n 's/.*static let string = "\(.*\)".*/\1/p' Sources/ReelMedia/Support/ReelVersion.swift)
mapfile -t files < <(grep -v '^#' po/POTFILES.in | grep -v '^$')
swift_files=() other_files=()
for file in "${files[@]}"; do
    case "$file" in
        *.swift) swift_files+=("$file") ;;
        *) other_files+=("$file") ;;
    esac
done

common=(--from-code=UTF-8 --add-comments=Translators: --package-name=reel --package-version="$version"
        --msgid-bugs-address=https://github.com/reel-player/reel/issues --copyright-holder="Reel developers")
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
# --keyword= drops C's own keywords (gettext, _, N_…): only Reel's two functions mark text.
xgettext "${common[@]}" --language=C --keyword= --keyword=tr --keyword=trn:1,2 -o "$tmp" "${swift_files[@]}"
for file in "${other_files[@]}"; do
    case "$file" in
        *.desktop) xgettext "${common[@]}" --join-existing --language=Desktop -o "$tmp" "$file" ;;
        # The ITS rules of GTK and AppStream (/usr/share/gettext/its) find the texts.
        *) xgettext "${common[@]}" --join-existing -o "$tmp" "$file" ;;
    esac
done
# The creation date changes every run: keep the committed one when nothing else did.
if [ -f "$output" ] && diff -q <(grep -v '^"POT-Creation-Date:' "$tmp") <(grep -v '^"POT-Creation-Date:' "$output") >/dev/null; then
    :
else
    cat "$tmp" >"$output"
fi

if $merge; then
    while read -r lang; do
        [ -z "$lang" ] && continue
        [ -f "po/$lang.po" ] && msgmerge --quiet --update --backup=none "po/$lang.po" po/reel.pot
    done < po/LINGUAS
fi
