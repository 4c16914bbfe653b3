#!/usr/bin/env bash
# Runs `reel-bench page` the way BENCHMARKS.md reports it: nginx on 127.0.0.1 serves FILE and a
# page holding it in a <video> tag; Reel and mpv (its ytdl hook) each have yt-dlp find it.
#   scripts/page-bench.sh [FILE] [reel-bench arguments...]
# FILE defaults to the benchmark file (scripts/make-bench-file.sh).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
file="${1:-$root/.build-bench-media/bench-1080p30-60s.mp4}"
shift || true
[ -f "$file" ] || { echo "no $file: run scripts/make-bench-file.sh first" >&2; exit 1; }
command -v yt-dlp >/dev/null || { echo "yt-dlp is not installed (scripts/install-deps.sh)" >&2; exit 1; }
tool="${REEL_BENCH:-$root/.build/release/reel-bench}"
[ -x "$tool" ] || { echo "build first: swift build -c release" >&2; exit 1; }
work="$(mktemp -d /tmp/reel-page-bench-XXXXXX)"
mkdir -p "$work/www" "$work/tmp" "$work/logs"
ln -s "$(realpath "$file")" "$work/www/film.mp4"
cat > "$work/www/page.html" <<PAGE
<!doctype html><html><head><title>A film on a page</title></head>
<body><h1>A film on a page</h1><video controls src="film.mp4"></video></body></html>
PAGE
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
# As root, nginx's workers would drop to nobody, who may not read FILE.
user=""; [ "$(id -u)" -eq 0 ] && user="user root;"
cat > "$work/nginx.conf" <<CONF
daemon off; $user worker_processes 1; pid $work/nginx.pid; error_log $work/logs/error.log warn;
events { worker_connections 64; }
http {
  access_log off; default_type application/octet-stream; types { text/html html; video/mp4 mp4; }
  client_body_temp_path $work/tmp/body; proxy_temp_path $work/tmp/proxy; fastcgi_temp_path $work/tmp/fcgi;
  uwsgi_temp_path $work/tmp/uwsgi; scgi_temp_path $work/tmp/scgi;
  server { listen 127.0.0.1:$port; root $work/www; location / { } }
}
CONF
nginx -c "$work/nginx.conf" -p "$work" & nginx_pid=$!
trap 'kill $nginx_pid 2>/dev/null; wait 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 100); do python3 -c "import socket; socket.create_connection(('127.0.0.1',$port)).close()" 2>/dev/null && break; sleep 0.05; done
"$tool" page "http://127.0.0.1:$port/page.html" --compare "$@"
