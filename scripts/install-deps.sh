#!/usr/bin/env bash
# Installs what Reel needs on Debian 12 (bookworm): build dependencies, the tools the tests use
# (ffmpeg for fixtures and the framemd5 oracle, a private PulseAudio, nginx for HTTP), and the
# peers the benchmarks compare against (mpv). Swift 6 itself comes from swift.org.
set -euo pipefail
packages=(
  pkg-config
  # FFmpeg, PulseAudio, GTK 4, libadwaita and epoxy headers and libraries
  libavformat-dev libavcodec-dev libavutil-dev libswscale-dev libswresample-dev libavfilter-dev
  libpulse-dev libgtk-4-dev libadwaita-1-dev libepoxy-dev
  # libwayland-client: the picture's own surface on a Wayland desktop (libgtk-4-dev pulls it in too)
  libwayland-dev
  # Xlib and MIT-SHM: the picture put straight into the window on X11 (GTK pulls them in too)
  libx11-dev libxext-dev
  # zimg: colour conversion and scaling of pictures drawn without a GPU
  libzimg-dev
  # Subtitles: libass renders them, fontconfig finds a font for plain formats, uchardet finds
  # the text encoding of older files
  libass-dev fonts-dejavu-core libuchardet-dev
  # libcurl: the stream cache's downloads (Range requests, redirects checked hop by hop)
  libcurl4-openssl-dev
  # The Meson build around SwiftPM (ninja comes with it); gettext compiles the translations
  # and merges them into the desktop file and the metainfo
  meson gettext
  # Test and benchmark tools
  ffmpeg pulseaudio pulseaudio-utils nginx-light mpv python3
  # A compositing manager for X11, for the window tests of a composited screen
  xcompmgr
  # yt-dlp finds the video on a web page (Reel runs it; the tests serve pages to it, and look
  # for a yt-dlp left running with pgrep, from procps)
  yt-dlp procps
  # The fuzzing harness (scripts/fuzz.sh) and the thumbnailer's tests damage media with zzuf
  zzuf
  # The manual pages are written from the binaries' --help (Meson, install-user.sh); the
  # thumbnailer is tested inside bubblewrap as GNOME's thumbnail factory runs it, and measured
  # against Debian's ffmpegthumbnailer (reel-bench thumbnail)
  help2man bubblewrap ffmpegthumbnailer
  # GNOME's own thumbnail factory (gnome-desktop, its seccomp filter included) drives it end to
  # end in the tests, through Debian's python3
  gir1.2-gnomedesktop-4.0 python3-gi
  # OCR reads rendered subtitles back from pictures in the tests
  tesseract-ocr tesseract-ocr-eng
  # spumux makes real DVD bitmap subtitles for the tests
  dvdauthor
  # The desktop app's tests: a real X server with GL, a window manager, input, screenshots,
  # the accessibility tree, D-Bus, the validators for the data files (x11-utils: xwininfo
  # and xdpyinfo, for the screenshot walk's windows and the tests' displays), and xclip to put
  # an address on the clipboard as a browser does
  xvfb openbox xdotool x11-apps x11-utils imagemagick libgl1-mesa-dri dbus dbus-x11 at-spi2-core
  python3-pyatspi gir1.2-atspi-2.0 libgtk-4-bin libglib2.0-bin desktop-file-utils appstream xclip
  librsvg2-bin libgdk-pixbuf2.0-bin shared-mime-info
  # The media remote (MPRIS) as desktops reach it
  playerctl
  # Wayland in the window tests: Weston, nested on the test X server (its X11 backend turns the
  # server's input into a Wayland seat's)
  weston
  # Vulkan on the CPU (lavapipe): FFmpeg's libplacebo filter, the tests' tone-mapping oracle
  mesa-vulkan-drivers
  # mkvpropedit: HDR metadata written into a test clip's container alone
  mkvtoolnix
)
run() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  run apt-get update -q
  DEBIAN_FRONTEND=noninteractive run apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
# nginx's packaged service is not needed: the tests start their own on 127.0.0.1.
if command -v systemctl >/dev/null 2>&1; then run systemctl disable --now nginx >/dev/null 2>&1 || true; fi
command -v swift >/dev/null || { echo "Swift 6 is not on PATH: see https://www.swift.org/install/linux/" >&2; exit 1; }
