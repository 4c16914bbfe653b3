# Sourced by scripts/screenshot-walk.sh and scripts/make-screenshots.sh (bash, set -euo pipefail):
# a private desktop for screenshots of Reel's real window, started here and stopped on exit, and
# the functions that drive the window and take its pictures.
#
# The sourcing script sets: root (the repository), reel (the binary, checked here and made a full
# path; demo is then the demo clip's path), shots_name (how messages start) and
# optionally shots_tools (programs it needs beyond the desktop's) and shots_screen (the screen's
# size, 1280x800 unless set). Everything runs on a private desktop: Xvfb (at that size, 24 bits
# deep, on a display number it picks itself), a D-Bus session bus, openbox, a sound server (the
# one PULSE_SERVER names if it answers, else a private PulseAudio with a null sink), and XDG
# folders in a temporary folder, $work. REEL_SHOTS_KEEP=1 keeps that folder (logs, media made
# for the pictures).

if [ ! -x "$reel" ]; then
  echo "$0: no Reel binary at $reel; build it first (swift build), or name one as the second argument" >&2
  exit 1
fi
reel=$(cd "$(dirname "$reel")" && pwd)/$(basename "$reel")
demo=$root/data/demo/reel-demo.mp4
[ -f "$demo" ] || { echo "$0: the demo clip $demo is missing (data/make-demo-clip.sh makes it)" >&2; exit 1; }

for tool in Xvfb openbox dbus-daemon xdotool xwd xwininfo convert compare gdbus pactl pulseaudio ${shots_tools:-}; do
  command -v "$tool" >/dev/null || { echo "$0: $tool is missing: scripts/install-deps.sh installs it" >&2; exit 1; }
done
# Debian's own Python: pyatspi is a Debian package, not in a python3 found first on PATH (pyenv, venvs).
/usr/bin/python3 -c 'import pyatspi' 2>/dev/null || { echo "$0: python3-pyatspi is missing: scripts/install-deps.sh installs it" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/reel-shots.XXXXXX")
log=$work/desktop.log
started=()       # process ids to stop on exit, in the order they started
reel_pid=""
failures=0

say() { echo "$shots_name: $*" >&2; }
cleanup() {
  local status=$?
  [ -n "$reel_pid" ] && stop_reel
  local i
  for ((i = ${#started[@]} - 1; i >= 0; i--)); do kill "${started[i]}" 2>/dev/null || true; done
  for pid in "${started[@]}"; do
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
  done
  if [ "${REEL_SHOTS_KEEP:-}" = 1 ] || [ $status -ne 0 ]; then say "logs and media kept in $work"; else rm -rf "$work"; fi
  exit $status
}
trap cleanup EXIT
trap 'exit 130' INT; trap 'exit 143' TERM; trap 'exit 129' HUP

# Polls `command…` every 0.1 s until it succeeds; false after TIMEOUT seconds.
wait_for() {
  local timeout=$1 what=$2; shift 2
  local deadline=$((SECONDS + timeout))
  until "$@"; do
    if [ $SECONDS -ge $deadline ]; then say "timed out after ${timeout}s waiting for $what"; return 1; fi
    sleep 0.1
  done
}

# ---- The private desktop -------------------------------------------------------------------

for dir in config cache data state runtime media; do mkdir -p "$work/$dir"; done
chmod 700 "$work/runtime"
# A steady text cursor: a blinking one would make the dialog's pictures differ from run to run.
mkdir -p "$work/config/gtk-4.0"
printf '[Settings]\ngtk-cursor-blink=false\n' >"$work/config/gtk-4.0/settings.ini"

# Xvfb picks a free display itself and writes its number to the descriptor it is given.
shots_screen=${shots_screen:-1280x800}
Xvfb -displayfd 3 -screen 0 "${shots_screen}x24" -nolisten tcp -noreset 3>"$work/display" >>"$log" 2>&1 &
started+=($!)
display_known() { [ -s "$work/display" ]; }
wait_for 20 "Xvfb" display_known || exit 1
export DISPLAY=":$(head -n1 "$work/display")"

dbus-daemon --session --nofork --nopidfile --print-address=1 >"$work/bus-address" 2>>"$log" &
started+=($!)
bus_known() { grep -q '^unix:' "$work/bus-address"; }
wait_for 20 "dbus-daemon" bus_known || exit 1
export DBUS_SESSION_BUS_ADDRESS=$(head -n1 "$work/bus-address")

export XDG_CONFIG_HOME=$work/config XDG_CACHE_HOME=$work/cache XDG_DATA_HOME=$work/data
export XDG_STATE_HOME=$work/state XDG_RUNTIME_DIR=$work/runtime
export GDK_BACKEND=x11 GTK_A11Y=atspi NO_AT_BRIDGE=0 GSETTINGS_BACKEND=keyfile
unset WAYLAND_DISPLAY

openbox --sm-disable >>"$log" 2>&1 &
started+=($!)

if [ -n "${PULSE_SERVER:-}" ] && pactl -s "$PULSE_SERVER" info >/dev/null 2>&1; then
  export PULSE_SERVER
else
  mkdir -p "$work/pulse"
  pulseaudio -n --daemonize=no --exit-idle-time=-1 --log-target=stderr \
    "--load=module-null-sink sink_name=reel_shots rate=48000" \
    "--load=module-native-protocol-unix auth-anonymous=1 socket=$work/pulse/native" \
    >>"$log" 2>&1 &
  started+=($!)
  export PULSE_SERVER=unix:$work/pulse/native
  pulse_answers() { pactl info >/dev/null 2>&1; }
  wait_for 20 "PulseAudio" pulse_answers || exit 1
fi
# The pointer starts in a corner, off every window (tooltips, controls).
xdotool mousemove $((${shots_screen%x*} - 1)) $((${shots_screen#*x} - 1))

# ---- Reel, its window and its accessibility tree -------------------------------------------

launch() {
  "$reel" "$@" >>"$work/reel.log" 2>&1 &
  reel_pid=$!
  wait_for 30 "the Reel window" window_found
}

window_found() {
  window=$(xdotool search --onlyvisible --name 'Reel$' 2>/dev/null | tail -n1) && [ -n "$window" ]
}

stop_reel() {
  kill -TERM "$reel_pid" 2>/dev/null || true
  for _ in $(seq 100); do kill -0 "$reel_pid" 2>/dev/null || break; sleep 0.1; done
  kill -9 "$reel_pid" 2>/dev/null || true
  wait "$reel_pid" 2>/dev/null || true
  reel_pid=""
}

cat >"$work/a11y.py" <<'EOF'
# Prints Reel's accessibility elements, one a line: role, name, states, and the element's box
# (x y width height, relative to its window) after its window's own size (width height).
# With ROLE and NAME ("*": any; NAME ending in "*": a prefix), only the elements that match.
import sys, pyatspi

role_wanted = sys.argv[1] if len(sys.argv) > 1 else "*"
name_wanted = sys.argv[2] if len(sys.argv) > 2 else "*"

def matches(role, name):
    if role_wanted != "*" and role != role_wanted:
        return False
    if name_wanted == "*":
        return True
    if name_wanted.endswith("*"):
        return name.startswith(name_wanted[:-1])
    return name == name_wanted

def walk(node, top):
    try:
        role, name = node.getRoleName(), node.name or ""
        states = ",".join(pyatspi.stateToString(s) for s in node.getState().getStates())
    except Exception:
        return  # gone while it was read
    try:
        ext = node.queryComponent().getExtents(pyatspi.WINDOW_COORDS)
        box = (ext.x, ext.y, ext.width, ext.height)
    except Exception:
        box = (0, 0, 0, 0)
    if role in ("frame", "dialog", "window"):
        top = box
    if matches(role, name):
        print("\t".join([role, name, states or "-", " ".join(map(str, box)), " ".join(map(str, top[2:]))]))
    try:
        children = [node.getChildAtIndex(i) for i in range(node.childCount)]
    except Exception:
        children = []
    for child in children:
        if child is not None:
            walk(child, top)

desktop = pyatspi.Registry.getDesktop(0)
for i in range(desktop.childCount):
    app = desktop.getChildAtIndex(i)
    if app is not None and app.name in ("reel", "Reel", "io.github.reel.Reel"):
        walk(app, (0, 0, 0, 0))
EOF

# Elements matching ROLE and NAME (see a11y.py), one a line.
elements() { /usr/bin/python3 "$work/a11y.py" "$@" 2>>"$work/a11y.log" || true; }
# Whether an element matching ROLE and NAME is there and visible. (GTK 4.8 gives no "showing"
# state below a window, and controls faded out stay "visible": the pictures tell those apart.)
visible() { elements "$1" "$2" | awk -F'\t' '$3 ~ /(^|,)visible(,|$)/ { found = 1 } END { exit !found }'; }
absent() { ! visible "$@"; }
# No notice over the picture (a step's picture must not depend on when a notice went).
no_notice() { absent '*' Notice; }

# Sets ex ey ew eh to the screen box of the first visible element matching ROLE and NAME in
# the main window. GTK gives boxes relative to its window, whose X window is larger by the
# client-side shadow on each side.
locate() {
  local line
  line=$(elements "$1" "$2" | awk -F'\t' '$3 ~ /(^|,)visible(,|$)/ { print; exit }')
  [ -n "$line" ] || return 1
  local box top gx gy gwidth gheight tw th
  box=$(cut -f4 <<<"$line"); top=$(cut -f5 <<<"$line")
  eval "$(xdotool getwindowgeometry --shell "$window" | sed -n 's/^\(X\|Y\|WIDTH\|HEIGHT\)=/g\1=/p' | tr 'A-Z' 'a-z')"
  read -r ex ey ew eh <<<"$box"
  read -r tw th <<<"$top"
  ex=$((gx + (gwidth - tw) / 2 + ex))
  ey=$((gy + (gheight - th) / 2 + ey))
}

# Moves the pointer to (X, Y) as a hand does, in small steps (one jump is a single event).
glide() {
  local x=$1 y=$2 steps=${3:-6} x0 y0 i
  eval "$(xdotool getmouselocation --shell | sed -n 's/^\(X\|Y\)=/p\1=/p' | tr 'A-Z' 'a-z')"
  x0=$px; y0=$py
  for ((i = 1; i <= steps; i++)); do
    xdotool mousemove $((x0 + (x - x0) * i / steps)) $((y0 + (y - y0) * i / steps))
    sleep 0.04
  done
}

key() { xdotool key --delay 50 "$@"; }

# Activates one of the window's actions over D-Bus, as GApplication exports them.
window_action() {
  gdbus call --session --dest io.github.reel.Reel --object-path /io/github/reel/Reel/window/1 \
    --method org.gtk.Actions.Activate "$1" "[]" "{}" >/dev/null
}

# ---- Screenshots ----------------------------------------------------------------------------

cat >"$work/xwd2pam.py" <<'EOF'
# Reads an X window dump (xwd) of a 32-bit window on stdin and writes it as a PAM image with
# its alpha channel (ImageMagick's xwd reader drops the alpha).
import struct, sys
data = sys.stdin.buffer.read()
fields = struct.unpack(">25I", data[:100])
header_size, width, height, byte_order = fields[0], fields[4], fields[5], fields[7]
bits_per_pixel, bytes_per_line, ncolors = fields[11], fields[12], fields[19]
if bits_per_pixel != 32:
    sys.exit("not a 32-bit window")
start = header_size + 12 * ncolors
out = bytearray()
for y in range(height):
    row = data[start + y * bytes_per_line: start + y * bytes_per_line + width * 4]
    for x in range(0, width * 4, 4):
        b, g, r, a = row[x:x + 4] if byte_order == 0 else row[x:x + 4][::-1]
        out += bytes((r, g, b, a))
sys.stdout.buffer.write(b"P7\nWIDTH %d\nHEIGHT %d\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR\n" % (width, height))
sys.stdout.buffer.write(out)
EOF

# The whole screen as a PNG without time stamps, so equal pixels make equal files. GTK's
# windows, popovers and dialogs have an alpha channel (32 bits deep); with no compositor
# running, Xvfb leaves some of them (popovers, dialogs) out of the root window's picture. So
# each such window is read on its own and drawn over the root's picture in stacking order, as
# a compositor would.
grab() {
  local layers=() id info x y
  xwd -root -silent >"$work/root.xwd"
  # xwininfo lists the topmost first.
  for id in $(xwininfo -root -children | awk '$1 ~ /^0x/ { print $1 }' | tac); do
    info=$(xwininfo -id "$id" 2>/dev/null) || continue
    grep -q 'Map State: IsViewable' <<<"$info" && grep -q 'Depth: 32' <<<"$info" || continue
    x=$(awk '/Absolute upper-left X/ { print $NF }' <<<"$info")
    y=$(awk '/Absolute upper-left Y/ { print $NF }' <<<"$info")
    xwd -id "$id" -silent 2>/dev/null | /usr/bin/python3 "$work/xwd2pam.py" >"$work/layer-$id.pam" 2>/dev/null || continue
    layers+=("$work/layer-$id.pam" -geometry "+$x+$y" -composite)
  done
  convert "xwd:$work/root.xwd" "${layers[@]}" -strip -define png:exclude-chunks=date,time "png:$1"
  rm -f "$work"/layer-*.pam
}

same_picture() {
  local diff
  diff=$(compare -metric AE "$1" "$2" null: 2>&1) || true
  [ "$diff" = 0 ]
}

# Waits until two screenshots in a row agree (animations done, the picture drawn) and CHECK…
# holds (it may look at $shot, the settled picture); false after 30 s.
settle() {
  local before deadline=$((SECONDS + 30)) previous="$work/shot-a.png"
  shot="$work/shot-b.png"
  grab "$previous"
  while [ $SECONDS -lt $deadline ]; do
    sleep 0.15
    # The check holds before and after the picture (a notice could go between the two).
    # (Checks on the picture look at the previous one then: it must equal this one anyway.)
    before=0; shot=$previous; { [ $# -eq 0 ] || "$@"; } && before=1
    shot="$work/shot-b.png"
    grab "$shot"
    if [ $before = 1 ] && same_picture "$previous" "$shot" && { [ $# -eq 0 ] || "$@"; }; then return 0; fi
    mv "$shot" "$previous"
  done
  mv "$previous" "$shot"
  return 1
}

# Saves NAME.png in OUTDIR once the picture settles with CHECK… holding (see settle); when it
# does not, the last picture is saved and the step counts as failed.
shoot() {
  local name=$1; shift
  if settle "$@"; then
    say "$name"
  else
    step_failed "$name" "no still picture for which '$*' holds in 30 s (saved the last one)"
  fi
  cp "$shot" "$out/$name.png"
}

# Whether the settled picture differs from PNG (something went or came since), or is PNG.
changed_from() { ! same_picture "$1" "$shot"; }
same_as() { same_picture "$1" "$shot"; }

step_failed() {
  say "$1: $2"
  failures=$((failures + 1))
}

