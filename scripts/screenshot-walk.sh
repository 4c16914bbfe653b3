#!/usr/bin/env bash
# Walks through what a person sees in Reel's real window and saves one screenshot per step in
# OUTDIR, under stable names (01-empty-window.png … 13-audio-only.png), so that two builds can
# be compared picture by picture (scripts/compare-screenshots.sh) and README/AppStream pictures
# come from a script instead of a hand.
#
# Usage: scripts/screenshot-walk.sh OUTDIR [REEL_BINARY]   (default .build/debug/reel)
#
# Everything runs on a private desktop (scripts/shots-desktop.sh), stopped on exit: Xvfb (1280x800x24, a
# display number it picks itself), a D-Bus session bus, openbox, a sound server (the one
# PULSE_SERVER names if it answers, else a private PulseAudio with a null sink), and XDG folders
# in a temporary folder. Pictures that show the video are taken paused at an exact position, and
# each screenshot is taken once two in a row agree, so two runs of one build give the same
# pictures (but 02, which shows playback running). Steps wait for what they show (the
# accessibility tree, the window list, the picture settling), not for fixed times.
# REEL_SHOTS_KEEP=1 keeps the temporary folder (logs, media made for the walk).
set -euo pipefail

usage() { echo "usage: $0 OUTDIR [REEL_BINARY]" >&2; exit 2; }
[ $# -ge 1 ] && [ $# -le 2 ] || usage
root=$(cd "$(dirname "$0")/.." && pwd)
out=$1
reel=${2:-.build/debug/reel}
shots_name=screenshot-walk shots_tools="playerctl ffmpeg"
mkdir -p "$out"
out=$(cd "$out" && pwd)

# shellcheck source=scripts/shots-desktop.sh
source "$root/scripts/shots-desktop.sh"

# ---- Media made for the walk -----------------------------------------------------------------

ffmpeg -hide_banner -loglevel error -y -f lavfi -i "sine=frequency=440:sample_rate=48000:duration=30" \
  -metadata title="A Tone" -metadata artist="Reel" -c:a libvorbis "$work/media/tone.ogg"
mkdir -p "$work/media/film"
cp "$demo" "$work/media/film/reel-demo.mp4"
printf '1\n00:00:00,000 --> 00:00:12,000\nSubtitles from the file beside the video\n' >"$work/media/film/reel-demo.srt"
# Not a video at all: text under a video's name.
printf 'This is not a video, only text under a video'"'"'s name.\n%.0s' $(seq 64) >"$work/media/broken.mp4"

# ---- The walk ------------------------------------------------------------------------------

# Each launch starts with the pointer in a corner, away from where windows open.
park_pointer() { xdotool mousemove 1279 799; }

# 01: nothing open, the invitation to open something.
launch || exit 1
wait_for 20 "the welcome page" visible label "Open a Video" || step_failed 01-empty-window "no welcome page"
shoot 01-empty-window
stop_reel

# 02–05: the demo clip, playing from 2 s.
park_pointer
launch --start 2 "$demo" || exit 1
wait_for 20 "the picture" locate filler Video || exit 1
vx=$ex vy=$ey vw=$ew vh=$eh
wait_for 20 "playback" visible push\ button Pause || step_failed 02-playing-controls-shown "it does not play"
glide $((vx + vw / 2)) $((vy + vh / 2))
# The controls fade in over 250 ms; the picture moves on under them, so nothing settles.
sleep 0.5
grab "$out/02-playing-controls-shown.png"
say 02-playing-controls-shown

# 03: Space pauses; an exact seek (the media remote, MPRIS) makes the picture the same each run.
key space
wait_for 10 "the pause" visible push\ button Play || step_failed 03-paused "Space did not pause"
playerctl --player=reel position 3
time_label_3() { visible label 0:03; }
wait_for 10 "the seek to 0:03" time_label_3 || step_failed 03-paused "the seek did not arrive"
glide $((vx + vw / 2 + 24)) $((vy + vh / 2))   # paused, the controls stay up
shoot 03-paused no_notice

# 04: a tap on the picture hides them (paused, nothing else does; the picture changes from 03,
# then stays).
xdotool click 1
shoot 04-controls-hidden changed_from "$out/03-paused.png"

# 05: the pointer over the scrubber: the hover preview of that point.
glide $((vx + vw / 2)) $((vy + vh - 30))
wait_for 10 "the scrubber" locate slider Position || step_failed 05-scrubber-hover-preview "no scrubber"
glide $((ex + ew * 7 / 10)) $((ey + eh / 2)) 3
card_shown() { visible '*' 'Preview at *' && visible '*' 'Preview picture'; }
wait_for 15 "the preview card" card_shown || step_failed 05-scrubber-hover-preview "no preview card"
shoot 05-scrubber-hover-preview card_shown

stop_reel

# 06: the info card (the window's toggle-info action, as the I key) over the paused picture.
# Opened afresh and never played, so that its frame counts are the same in every run.
park_pointer
launch --start 3 --paused "$demo" || exit 1
wait_for 20 "the picture" visible push\ button Play || step_failed 06-info-card "the demo clip did not open"
window_action toggle-info
wait_for 10 "the info card" visible '*' 'Media information' || step_failed 06-info-card "no info card"
shoot 06-info-card no_notice
stop_reel

# 07: two files queued, the queue panel open (its button in the header bar).
park_pointer
launch --start 2 --paused "$demo" "$work/media/tone.ogg" || exit 1
wait_for 20 "the picture" visible push\ button Play || step_failed 07-queue-panel "the demo clip did not open"
# The header bar lies over the picture, faded out until the pointer moves: the hand reaches for
# the button through the picture and rests on it (which keeps the header up), then clicks.
wait_for 10 "the picture" locate filler Video || step_failed 07-queue-panel "no picture"
glide $((ex + ew / 2)) $((ey + eh / 3))
wait_for 10 "the Queue button" locate push\ button Queue || step_failed 07-queue-panel "no Queue button"
glide $((ex + ew / 2)) $((ey + eh / 2))
xdotool click 1
two_rows() { [ "$(elements 'list item' '*' | awk -F'\t' '$3 ~ /visible/' | wc -l)" -eq 2 ]; }
wait_for 10 "two rows in the queue panel" two_rows || step_failed 07-queue-panel "the panel does not list two items"
# The rows count as visible in a closed popover too: the popover's own window must be up.
panel_open() { [ "$(xdotool search --onlyvisible --pid "$reel_pid" 2>/dev/null | wc -l)" -ge 2 ]; }
wait_for 10 "the queue panel" panel_open || step_failed 07-queue-panel "the panel did not open"
park_pointer   # no tooltip on the button
shoot 07-queue-panel panel_open

# 08: the preferences (Ctrl+comma, the app's preferences action).
key Escape
key ctrl+comma
preferences_open() { xdotool search --onlyvisible --name '^Preferences$' >/dev/null 2>&1; }
wait_for 10 "the Preferences window" preferences_open || step_failed 08-preferences "no Preferences window"
shoot 08-preferences
stop_reel

# 09: subtitles from a file beside the video, drawn over the paused picture.
park_pointer
launch --start 2 --paused "$work/media/film/reel-demo.mp4" || exit 1
wait_for 20 "the picture" visible push\ button Play || step_failed 09-subtitles "the clip did not open"
shoot 09-subtitles no_notice

# 10: fullscreen (F).
key f
fullscreen() {
  eval "$(xdotool getwindowgeometry --shell "$window" | sed -n 's/^\(WIDTH\|HEIGHT\)=/f\1=/p' | tr 'A-Z' 'a-z')"
  [ "$fwidth" = 1280 ] && [ "$fheight" = 800 ]
}
wait_for 10 "fullscreen" fullscreen || step_failed 10-fullscreen "F did not make the window fullscreen"
shoot 10-fullscreen no_notice
key f
not_fullscreen() { ! fullscreen; }
wait_for 10 "the window back from fullscreen" not_fullscreen || step_failed 10-fullscreen "F did not leave fullscreen"

# 11: the dialog for an address (Ctrl+L).
key ctrl+l
address_dialog() { xdotool search --onlyvisible --name '^Open an Address$' >/dev/null 2>&1; }
wait_for 10 "the address dialog" address_dialog || step_failed 11-open-address-dialog "no dialog"
shoot 11-open-address-dialog address_dialog
stop_reel

# 12: a file that is not a video: the error in the window.
park_pointer
launch "$work/media/broken.mp4" || exit 1
wait_for 20 "the error" visible label 'Cannot Play “broken.mp4”' || step_failed 12-error-state "no error shown"
shoot 12-error-state
stop_reel

# 13: sound only: the audio card, paused at 2 s.
park_pointer
launch --start 2 --paused "$work/media/tone.ogg" || exit 1
wait_for 20 "the audio card" visible '*' 'Now playing' || step_failed 13-audio-only "no audio card"
shoot 13-audio-only no_notice
stop_reel

if [ $failures -gt 0 ]; then
  say "$failures step(s) did not show what they should: see above"
  exit 1
fi
say "all 13 pictures are in $out"
