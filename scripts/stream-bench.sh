#!/usr/bin/env bash
# Runs `reel-bench stream` the way BENCHMARKS.md reports it: nginx on 127.0.0.1 serves
# FILE, the fault proxy in front of it adds 50 ms before each response and holds each response
# to 20 Mbit/s, and Reel is measured beside mpv --cache=yes on the proxy's URL.
#   scripts/stream-bench.sh [--dash] [FILE] [reel-bench arguments...]
# FILE defaults to the benchmark file (scripts/make-bench-file.sh). With --dash, FILE is first cut
# by ffmpeg's dash muxer (streams copied, 2 s segments, its audio twice as two languages' sets)
# and the manifest's URL is measured.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
dash=no; [ "${1:-}" = "--dash" ] && { dash=yes; shift; }
file="${1:-$root/.build-bench-media/bench-1080p30-60s.mp4}"
shift || true
[ -f "$file" ] || { echo "no $file: run scripts/make-bench-file.sh first" >&2; exit 1; }
tool="${REEL_BENCH:-$root/.build/release/reel-bench}"
[ -x "$tool" ] || { echo "build first: swift build -c release" >&2; exit 1; }
work="$(mktemp -d /tmp/reel-stream-bench-XXXXXX)"
mkdir -p "$work/www" "$work/tmp" "$work/logs"
ln -s "$(realpath "$file")" "$work/www/media"
path=media
if [ "$dash" = yes ]; then
  mkdir -p "$work/www/dash"
  ffmpeg -hide_banner -loglevel error -nostdin -i "$file" -map 0:v:0 -map 0:a:0 -map 0:a:0 -c copy \
    -metadata:s:a:0 language=eng -metadata:s:a:1 language=fra -f dash -seg_duration 2 \
    -adaptation_sets "id=0,streams=v id=1,streams=1 id=2,streams=2" "$work/www/dash/manifest.mpd"
  path=dash/manifest.mpd
fi
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
web=$(free_port); proxy=$(free_port)
# As root, nginx's workers would drop to nobody, who may not read FILE.
user=""; [ "$(id -u)" -eq 0 ] && user="user root;"
cat > "$work/nginx.conf" <<CONF
daemon off; $user worker_processes 1; pid $work/nginx.pid; error_log $work/logs/error.log warn;
events { worker_connections 64; }
http {
  access_log off; default_type application/octet-stream;
  client_body_temp_path $work/tmp/body; proxy_temp_path $work/tmp/proxy; fastcgi_temp_path $work/tmp/fcgi;
  uwsgi_temp_path $work/tmp/uwsgi; scgi_temp_path $work/tmp/scgi;
  server { listen 127.0.0.1:$web; root $work/www; location / { } }
}
CONF
nginx -c "$work/nginx.conf" -p "$work" & nginx_pid=$!
echo '{"latency_ms": 50, "rate": 2500000}' > "$work/control.json"
python3 "$root/scripts/fault-proxy.py" "$proxy" "$web" "$work/control.json" "$work/stats.json" & proxy_pid=$!
trap 'kill $proxy_pid $nginx_pid 2>/dev/null; wait 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 100); do python3 -c "import socket; socket.create_connection(('127.0.0.1',$proxy)).close()" 2>/dev/null && break; sleep 0.05; done
"$tool" stream "http://127.0.0.1:$proxy/$path" --compare --proxy-stats "$work/stats.json" "$@"
