#!/bin/sh
# Meson's check of a manual page: formatted by man as a reader's terminal would (80 columns),
# with every groff warning on (-ww); any message fails, since man and groff exit 0 on warnings.
# usage: check-man-page.sh PAGE
set -eu
page=$1
[ -s "$page" ] || { echo "check-man-page: $page is missing or empty" >&2; exit 1; }
messages=$(LC_ALL=C.UTF-8 MANWIDTH=80 MAN_KEEP_FORMATTING=1 man --warnings=w -E UTF-8 -l "$page" 2>&1 >/dev/null) || {
  echo "check-man-page: man failed on $page: $messages" >&2; exit 1; }
if [ -n "$messages" ]; then
  echo "check-man-page: $page: $messages" >&2
  exit 1
fi
# A page with no NAME or no DESCRIPTION is no page for whatis and apropos.
text=$(LC_ALL=C.UTF-8 MANWIDTH=80 man -E UTF-8 -l "$page" 2>/dev/null | col -b)
for section in NAME DESCRIPTION; do
  printf '%s\n' "$text" | grep -qx "$section" || { echo "check-man-page: $page has no $section section" >&2; exit 1; }
done
printf '%s\n' "$text" | grep -q -- "--help" || { echo "check-man-page: $page lists no options" >&2; exit 1; }
echo "check-man-page: $page reads cleanly"
