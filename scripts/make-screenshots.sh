#!/usr/bin/env bash
# Makes the screenshots the README and the AppStream metainfo show, from Reel's real window
# playing the demo clip: playing.png (playing, with the controls shown), queue.png (two items
# queued, the queue panel open), shortcuts.png (the keyboard shortcuts window) and
# preferences.png (the preferences' Subtitles page). Each picture
# is cut to its window and made small for a software centre: at most 1000 pixels wide, no
# metadata, 256 colours.
#
# Usage: scripts/make-screenshots.sh [OUTDIR] [REEL_BINARY]   (defaults: data/screenshots and
# .build/debug/reel)
#
# It runs on a private desktop of its own (Xvfb, D-Bus, openbox, PulseAudio with a null sink:
# scripts/shots-desktop.sh, shared with screenshot-walk.sh), stopped on exit. Each picture but the
# playing one is taken once two in a row agree. REEL_SHOTS_KEEP=1 keeps the temporary folder.
set -euo pipefail

usage() { echo "usage: $0 [OUTDIR] [REEL_BINARY]" >&2; exit 2; }
[ $# -le 2 ] || usage
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$root/data/screenshots}
reel=${2:-$root/.build/debug/reel}
# Larger than the walk's screen: the shortcuts window is wider than 1280 pixels.
shots_name=make-screenshots shots_tools="ffmpeg" shots_screen=1600x1000
mkdir -p "$out"
out=$(cd "$out" && pwd)

# shellcheck source=scripts/shots-desktop.sh
source "$root/scripts/shots-desktop.sh"

# Sets bx by bw bh to the screen box of what X window ID draws: its own picture less any
# transparent margin GTK keeps around a window for client-side shadows (there is none without a
# compositor, as here, but a solid frame; the picture keeps that).
window_box() {
  local info x y trim
  [ -n "$1" ] || return 1   # (xwininfo without a window waits for a click on one)
  info=$(xwininfo -id "$1")
  x=$(awk '/Absolute upper-left X/ { print $NF }' <<<"$info")
  y=$(awk '/Absolute upper-left Y/ { print $NF }' <<<"$info")
  if ! xwd -id "$1" -silent | /usr/bin/python3 "$work/xwd2pam.py" >"$work/window.pam" 2>/dev/null; then
    # X dumps some windows 24 bits deep (no alpha, so no transparent margin): the whole window.
    bw=$(awk '/^  Width:/ { print $NF }' <<<"$info") bh=$(awk '/^  Height:/ { print $NF }' <<<"$info")
    bx=$x by=$y
    [ "$bw" -gt 0 ] && [ "$bh" -gt 0 ]
    return
  fi
  # The bounding box (WxH+X+Y) of the pixels that are not fully transparent, in the window
  # framed by one transparent pixel (so that a window with no margin is not trimmed away).
  trim=$(convert "$work/window.pam" -alpha extract -threshold 0 -bordercolor black -border 1 -format '%@' info:)
  [[ $trim =~ ^([0-9]+)x([0-9]+)\+([0-9]+)\+([0-9]+)$ ]] || return 1
  bw=${BASH_REMATCH[1]} bh=${BASH_REMATCH[2]}
  bx=$((x + BASH_REMATCH[3] - 1)) by=$((y + BASH_REMATCH[4] - 1))
  [ "$bw" -gt 0 ] && [ "$bh" -gt 0 ]
}

# Saves the screen picture SHOT as OUTDIR/NAME.png, cut to the box of X window ID, made small.
save() {
  local name=$1 id=$2 shot=$3
  window_box "$id" || { say "$name: no picture of its window"; return 1; }
  convert "$shot" -crop "${bw}x${bh}+${bx}+${by}" +repage -resize '1000x>' -strip \
    +dither -colors 256 -define png:exclude-chunks=date,time "png8:$out/$name.png"
  say "$name.png: ${bw}x${bh} at ${bx},${by}, $(stat -c %s "$out/$name.png") bytes"
}

# Each launch starts with the pointer in a corner, away from where windows open.
park_pointer() { xdotool mousemove 1599 999; }

ffmpeg -hide_banner -loglevel error -y -f lavfi -i "sine=frequency=440:sample_rate=48000:duration=30" \
  -metadata title="A Tone" -metadata artist="Reel" -c:a libvorbis "$work/media/tone.ogg"

# Playing, with the controls shown: the pointer moved onto the picture brings them up, and the
# header bar over the picture with them.
park_pointer
launch --start 2 "$demo" || exit 1
wait_for 20 "the picture" locate filler Video || exit 1
vx=$ex vy=$ey vw=$ew vh=$eh
wait_for 20 "playback" visible push\ button Pause || step_failed playing "it does not play"
glide $((vx + vw / 2)) $((vy + vh / 3))
# The controls fade in over 250 ms; the picture moves on under them, so nothing settles.
sleep 0.5
grab "$work/playing.png"
save playing "$window" "$work/playing.png" || step_failed playing "not saved"
stop_reel

# The queue panel (its button in the header bar) over the paused picture, two items queued.
park_pointer
launch --start 3 --paused "$demo" "$work/media/tone.ogg" || exit 1
wait_for 20 "the picture" visible push\ button Play || step_failed queue "the demo clip did not open"
# The header bar lies over the picture, faded out until the pointer moves: the hand reaches for
# the button through the picture and rests on it (which keeps the header up), then clicks.
wait_for 10 "the picture" locate filler Video || step_failed queue "no picture"
glide $((ex + ew / 2)) $((ey + eh / 3))
wait_for 10 "the Queue button" locate push\ button Queue || step_failed queue "no Queue button"
glide $((ex + ew / 2)) $((ey + eh / 2))
xdotool click 1
two_rows() { [ "$(elements 'list item' '*' | awk -F'\t' '$3 ~ /visible/' | wc -l)" -eq 2 ]; }
wait_for 10 "two rows in the queue panel" two_rows || step_failed queue "the panel does not list two items"
# The rows count as visible in a closed popover too: the popover's own window must be up.
panel_open() { [ "$(xdotool search --onlyvisible --pid "$reel_pid" 2>/dev/null | wc -l)" -ge 2 ]; }
wait_for 10 "the queue panel" panel_open || step_failed queue "the panel did not open"
park_pointer   # no tooltip on the button
settle panel_open || step_failed queue "no still picture with the panel open"
save queue "$window" "$shot" || step_failed queue "not saved"
key Escape

# The keyboard shortcuts window (the window's show-help-overlay action, as Ctrl+?).
window_action show-help-overlay
# Its X window is named for the application, not "Shortcuts": it is Reel's other window, whose
# keys the accessibility tree shows.
shortcuts_window() {
  shortcuts=$(xdotool search --onlyvisible --pid "$reel_pid" 2>/dev/null | grep -vx "$window" | tail -n1) &&
    [ -n "$shortcuts" ] && visible label 'Play or pause'
}
wait_for 20 "the shortcuts window" shortcuts_window || step_failed shortcuts "no shortcuts window"
settle shortcuts_window || step_failed shortcuts "no still picture of the shortcuts window"
save shortcuts "$shortcuts" "$shot" || step_failed shortcuts "not saved"
stop_reel

# The preferences (Ctrl+,) on their Subtitles page: libadwaita's rows, the font and colour buttons.
park_pointer
launch --start 3 --paused "$demo" || exit 1
wait_for 20 "the picture" visible push\ button Play || step_failed preferences "the demo clip did not open"
key ctrl+comma
preferences_window() {
  preferences=$(xdotool search --onlyvisible --name '^Preferences$' 2>/dev/null | tail -n1) && [ -n "$preferences" ]
}
wait_for 20 "the preferences window" preferences_window || step_failed preferences "no preferences window"
# locate places elements by the window in $window.
player_window=$window window=$preferences
wait_for 10 "the Subtitles page's tab" locate page\ tab Subtitles || step_failed preferences "no Subtitles page"
xdotool mousemove $((ex + ew / 2)) $((ey + eh / 2)) click 1
park_pointer   # no tooltip, no hover
subtitles_page() { elements 'page tab' Subtitles | awk -F'\t' '$3 ~ /(^|,)selected(,|$)/ { found = 1 } END { exit !found }'; }
wait_for 10 "the Subtitles page" subtitles_page || step_failed preferences "the Subtitles page did not open"
settle subtitles_page || step_failed preferences "no still picture of the preferences"
save preferences "$preferences" "$shot" || step_failed preferences "not saved"
window=$player_window
stop_reel

if [ $failures -gt 0 ]; then
  say "$failures picture(s) did not show what they should: see above"
  exit 1
fi
say "the screenshots are in $out"
