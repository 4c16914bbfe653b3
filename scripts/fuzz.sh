#!/usr/bin/env bash
# Fuzzes reel-tool with damaged media: small seed files of many containers (made by ffmpeg),
# mutated by zzuf (random bit flips over the whole file) or by ffmpeg's noise bitstream filter
# (damaged packets inside an intact container), each run through `reel-tool info`, `frame --md5`
# and `play --max-speed`. Every run must end in success or a clean error (exit 2 with one JSON
# error line); a crash (death by a signal), a hang or any other exit is kept in OUT/kept with its
# command and stderr, to become a regression fixture. A run that outlasts --timeout (or ends in
# the tool's own "timeout" error) is run again alone at the end with four times the limit, and
# counts as a hang only if it outlasts that too: a busy machine alone does not make a hang.
#
# Usage: scripts/fuzz.sh [--files N] [--seed S] [--out DIR] [--timeout SECONDS] [--tool PATH]
#                        [--jobs N] [--seeds DIR] [--memory MIB]
#   --files 100     damaged files to make and run (each through the three commands)
#   --seed 1        the first file's number: it picks the seed file, the damage and the zzuf seed
#   --out DIR       results.tsv, kept/ and work/ (default: a new folder in $TMPDIR)
#   --timeout 60    seconds one run may take before it is suspected of hanging
#   --tool PATH     reel-tool (default: .build/release, else .build/debug, else a release build)
#   --jobs 1        files run at once
#   --seeds DIR     where the seed files are made, and reused while their recipes hold (OUT/seeds)
#   --memory 4096   address-space limit of each run, in MiB: unbounded growth fails instead
#                   (0: none; a sanitized reel-tool needs its own huge shadow address space)
# The summary is the last line on stdout; the exit status is 0 when nothing crashed, hung or
# exited uncleanly, 1 otherwise, 2 on a usage or setup error.
set -euo pipefail
# One block, read whole before it runs: editing this file during a long run cannot change it.
{

files=100
seed=1
out=""
timeout=60
tool=""
jobs=1
seeds=""
memory=4096

usage() { sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
while [ $# -gt 0 ]; do
  case "$1" in
    --files) files="${2:?--files needs a value}"; shift 2 ;;
    --seed) seed="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --timeout) timeout="$2"; shift 2 ;;
    --tool) tool="$2"; shift 2 ;;
    --jobs) jobs="$2"; shift 2 ;;
    --seeds) seeds="$2"; shift 2 ;;
    --memory) memory="$2"; shift 2 ;;
    -h|--help) usage ;;
    *) echo "fuzz: unknown option $1" >&2; usage ;;
  esac
done
for n in "$files" "$seed" "$timeout" "$jobs" "$memory"; do
  [[ "$n" =~ ^[0-9]+$ ]] || { echo "fuzz: not a whole number: $n" >&2; exit 2; }
done
[ "$jobs" -ge 1 ] && [ "$timeout" -ge 1 ] || { echo "fuzz: --jobs and --timeout must be at least 1" >&2; exit 2; }
for program in ffmpeg zzuf timeout python3; do
  command -v "$program" >/dev/null || { echo "fuzz: needs $program (scripts/install-deps.sh)" >&2; exit 2; }
done

root="$(cd "$(dirname "$0")/.." && pwd)"
if [ -z "$tool" ]; then
  if [ -x "$root/.build/release/reel-tool" ]; then tool="$root/.build/release/reel-tool"
  elif [ -x "$root/.build/debug/reel-tool" ]; then tool="$root/.build/debug/reel-tool"
  else
    echo "fuzz: building reel-tool (release)" >&2
    (cd "$root" && swift build -c release --product reel-tool >&2)
    tool="$root/.build/release/reel-tool"
  fi
fi
[ -x "$tool" ] || { echo "fuzz: no reel-tool at $tool" >&2; exit 2; }
tool="$(cd "$(dirname "$tool")" && pwd)/$(basename "$tool")"
out="${out:-$(mktemp -d "${TMPDIR:-/tmp}/reel-fuzz.XXXXXX")}"
# A folder used before starts over: what it kept then is not this run's.
rm -rf "$out/kept" "$out/work"
mkdir -p "$out/kept" "$out/work"
out="$(cd "$out" && pwd)"
seeds="${seeds:-$out/seeds}"
mkdir -p "$seeds"
: > "$out/results.tsv"
: > "$out/suspects.tsv"

# --- Seeds: 2 s at 320x240 with sound, and subtitles where the container carries them. ---------
# Single-threaded, bit-exact encoding, so the same ffmpeg makes the same bytes again and a kept
# input can be remade from its seed name, mutation and ratio.
srt="$seeds/subtitles.srt"
printf '1\n00:00:00,200 --> 00:00:01,000\nFirst line\n\n2\n00:00:01,100 --> 00:00:01,900\n<i>Second</i> line\n' > "$srt"
video=(-f lavfi -i "testsrc2=size=320x240:rate=25:duration=2")
audio=(-f lavfi -i "sine=frequency=440:sample_rate=48000:duration=2")
exact=(-threads 1 -fflags +bitexact -flags:v +bitexact -flags:a +bitexact -map_metadata -1)
seed_names=()
# The encoders' version is part of every seed's recipe (asked once: each ask is a process start).
ffmpeg_version="$(ffmpeg -version | sed -n 1p)"
make_seed() {  # NAME EXT ARGS... (after the inputs)
  local name="$1" ext="$2"; shift 2
  local file="$seeds/$name.$ext" recipe
  seed_names+=("$name.$ext")
  # A seed folder kept between runs is reused while each seed's recipe is unchanged.
  recipe="$(printf '%q ' "$@" "${exact[@]}"; echo "$ffmpeg_version")"
  [ -s "$file" ] && [ "$(cat "$file.recipe" 2>/dev/null)" = "$recipe" ] && return 0
  ffmpeg -hide_banner -loglevel error -nostdin -y "$@" "${exact[@]}" "$file.partial.$ext"
  mv "$file.partial.$ext" "$file"
  printf '%s\n' "$recipe" > "$file.recipe"
}
make_seed h264-aac-movtext mp4 "${video[@]}" "${audio[@]}" -i "$srt" -map 0:v -map 1:a -map 2:s \
  -c:v libx264 -preset veryfast -g 12 -bf 2 -c:a aac -b:a 64k -c:s mov_text
make_seed h264-vorbis-srt-ass mkv "${video[@]}" "${audio[@]}" -i "$srt" -i "$srt" -map 0:v -map 1:a -map 2:s -map 3:s \
  -c:v libx264 -preset veryfast -g 12 -c:a libvorbis -c:s:0 srt -c:s:1 ass
make_seed vp9-opus-webvtt webm "${video[@]}" "${audio[@]}" -i "$srt" -map 0:v -map 1:a -map 2:s \
  -c:v libvpx-vp9 -deadline realtime -cpu-used 8 -b:v 200k -g 12 -c:a libopus -b:a 48k -c:s webvtt
make_seed mpeg2-mp2 ts "${video[@]}" "${audio[@]}" -map 0:v -map 1:a -c:v mpeg2video -g 12 -c:a mp2
make_seed mpeg4-mp3 avi "${video[@]}" "${audio[@]}" -map 0:v -map 1:a -c:v mpeg4 -g 12 -c:a libmp3lame
make_seed theora-vorbis ogv "${video[@]}" "${audio[@]}" -map 0:v -map 1:a -c:v libtheora -g 12 -c:a libvorbis
make_seed h264-aac-fragmented mp4 "${video[@]}" "${audio[@]}" -map 0:v -map 1:a \
  -c:v libx264 -preset veryfast -g 12 -c:a aac -b:a 64k -movflags +frag_keyframe+empty_moov+default_base_moof
make_seed hevc-ac3-fragmented mov "${video[@]}" "${audio[@]}" -map 0:v -map 1:a \
  -c:v libx265 -preset ultrafast -x265-params log-level=none:pools=none:frame-threads=1 -g 12 -c:a ac3 \
  -movflags +frag_keyframe+empty_moov+delay_moov
make_seed vp8-flac mkv "${video[@]}" "${audio[@]}" -map 0:v -map 1:a -c:v libvpx -deadline realtime -b:v 200k -g 12 -c:a flac
make_seed h264-aac flv "${video[@]}" "${audio[@]}" -map 0:v -map 1:a -c:v libx264 -preset veryfast -g 12 -c:a aac -b:a 64k
make_seed mpeg1-mp2 mpg "${video[@]}" "${audio[@]}" -map 0:v -map 1:a -c:v mpeg1video -g 12 -c:a mp2
make_seed mjpeg-pcm mov "${video[@]}" "${audio[@]}" -map 0:v -map 1:a -c:v mjpeg -q:v 8 -c:a pcm_s16le
make_seed hevc10-opus-51 mkv "${video[@]}" -f lavfi -i "sine=frequency=440:sample_rate=48000:duration=2,aformat=channel_layouts=5.1" \
  -map 0:v -map 1:a -c:v libx265 -preset ultrafast -x265-params log-level=none:pools=none:frame-threads=1 -g 12 \
  -pix_fmt yuv420p10le -c:a libopus -b:a 96k
make_seed h264-444-ac3 mp4 "${video[@]}" "${audio[@]}" -map 0:v -map 1:a -c:v libx264 -preset veryfast -pix_fmt yuv444p \
  -g 12 -bf 3 -c:a ac3
# Sound alone: with cover art (an attached picture), and plain.
make_seed mp3-cover mp3 "${audio[@]}" -f lavfi -i "testsrc2=size=160x120:rate=1:duration=1" -map 0:a -map 1:v \
  -c:a libmp3lame -c:v png -frames:v 1 -disposition:v attached_pic -id3v2_version 3
make_seed opus opus "${audio[@]}" -map 0:a -c:a libopus -b:a 48k
# Many channels, a tone each (more planes than AVFrame.data holds; layouts libswresample cannot
# mix): 16-channel AAC beside H.264 in MPEG-TS, and 24 unlabelled channels of Opus.
tones=() after_video="" alone=""
for i in $(seq 0 23); do
  tones+=(-f lavfi -i "sine=frequency=$((310 + 50 * i)):sample_rate=48000:duration=2")
  alone+="[$i:a]"
  if [ "$i" -lt 16 ]; then after_video+="[$((i + 1)):a]"; fi
done
make_seed h264-aac16 ts "${video[@]}" "${tones[@]:0:64}" -filter_complex "${after_video}amerge=inputs=16[a]" \
  -map 0:v -map "[a]" -c:v libx264 -preset veryfast -g 12 -c:a aac -b:a 384k
make_seed opus24 ogg "${tones[@]}" -filter_complex "${alone}amerge=inputs=24[a]" -map "[a]" \
  -c:a libopus -mapping_family 255 -b:a 256k

# --- One damaged file: mutate, run the three commands, record each run's class. ----------------
# Each seed goes through these damages in turn: bit flips at rising ratios (a few flips reach
# deep into a file; many stop it at its header), flips in the first and last 8 KiB only (where
# headers and indexes hold sizes, rates, time bases and layouts), damaged and dropped packets in
# an intact container, and a file cut short with a few flips besides.
plans=(zzuf:0.00001 zzuf:0.00003 zzuf:0.0001 zzuf:0.0003 zzuf:0.001 zzuf:0.003 zzuf:0.01
       ends:0.0003 ends:0.001 noise noise-drop cut)
# Reads each OUTFILE (the stdout of a run that exited 2) and writes OUTFILE.code: "clean CODE"
# if it is one JSON error line, "unclean" otherwise. One Python for a file's runs: each start of
# it costs more than a run of the tool. (-S: the standard library is all it needs, and it starts
# faster without site's.)
check_json() {  # OUTFILE...
  python3 -S -c '
import json, sys
for path in sys.argv[1:]:
    try:
        lines = open(path, "rb").read().decode("utf-8").splitlines()
        error = json.loads(lines[0]).get("error") if len(lines) == 1 else None
    except Exception:
        error = None
    with open(path + ".code", "w") as verdict:
        verdict.write("clean %s\n" % error.get("code") if isinstance(error, dict) else "unclean\n")' "$@" 2>/dev/null || true
}

# Prints "ok", "error CODE" (exit 2, one JSON error line on stdout), "crash" (a signal), "timeout"
# (a suspected hang) or "unclean" for the run of BASE (see run_one; check_json has looked at its
# stdout if it exited 2) under LIMIT.
classify() {  # BASE LIMIT
  local base="$1" limit="$2" status elapsed verdict code
  status=$(cat "$base.status"); elapsed=$(cat "$base.seconds"); elapsed="${elapsed%.*}"
  # timeout(1) says 124 when it stopped the command, 137 when it had to kill it.
  if [ "$status" -eq 124 ] || { [ "$status" -eq 137 ] && [ "$elapsed" -ge "$limit" ]; }; then echo timeout
  elif [ "$status" -eq 0 ]; then echo ok
  elif [ "$status" -ge 128 ]; then echo crash
  elif [ "$status" -eq 2 ] && read -r verdict code < "$base.out.code" 2>/dev/null && [ "$verdict" = clean ]; then
    # The tool's own limit (frame waits 60 s for the media to load) is a suspected hang too.
    if [ "$code" = timeout ]; then echo timeout; else echo "error $code"; fi
  else echo unclean
  fi
}

# Runs one command on FILE under a time limit (and a memory limit, so unbounded growth fails
# instead of taking the machine); leaves stdout, stderr, the exit status and the seconds taken
# beside BASE.
run_one() {  # BASE LIMIT COMMAND...
  local base="$1" limit="$2"; shift 2
  local start status=0
  start=$(date +%s.%N)
  ( if [ "$memory" -gt 0 ]; then ulimit -v $((memory * 1024)); fi; exec env REEL_FFMPEG_LOG="${REEL_FFMPEG_LOG:-fatal}" \
      XDG_CACHE_HOME="$out/work/cache" timeout -k 10 "$limit" "$@" ) > "$base.out" 2> "$base.err" || status=$?
  local seconds
  seconds=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
  echo "$status" > "$base.status"
  echo "$seconds" > "$base.seconds"
}

# Sets `command` (the caller's) to the tool's command WHAT on FILE, with AT for a frame.
set_command() {  # WHAT FILE AT
  command=("$tool" "$1" "$2")
  case "$1" in
    frame) command+=(--at "$3" --md5) ;;
    play) command+=(--max-speed --audio null) ;;
  esac
}

keep() {  # CLASS FILE NAME RECIPE BASE COMMAND...
  local class="$1" file="$2" name="$3" recipe="$4" base="$5"; shift 5
  local dir="$out/kept/$name"
  mkdir -p "$dir"
  cp -f "$file" "$dir/"
  local which="${base##*.}"
  { echo "class: $class (exit status $(cat "$base.status"))"
    echo "made by: $recipe (SEEDS: $seeds)"
    printf 'command:'; printf ' %q' "$@"; echo
  } > "$dir/$which.txt"
  cp -f "$base.err" "$dir/$which.stderr"
  cp -f "$base.out" "$dir/$which.stdout"
}

fuzz_file() {  # INDEX
  local i="$1"
  local number=$((seed + i))
  local source="${seed_names[$((number % ${#seed_names[@]}))]}"
  local ext="${source##*.}"
  # Every seed meets every plan within seeds × plans numbers, and neighbours differ in both.
  local plan="${plans[$(( (number + number / ${#seed_names[@]}) % ${#plans[@]} ))]}"
  local tag name recipe file
  local amount=$(( 200 + (number * 7919) % 5000 ))
  case "$plan" in
    zzuf:*) tag="zzuf$number-r${plan#zzuf:}"; recipe="zzuf -s $number -r ${plan#zzuf:} -c cat SEEDS/$source > OUT" ;;
    ends:*) local size ends
      size=$(stat -c %s "$seeds/$source"); ends="0-8191,$((size > 8192 ? size - 8192 : 0))-"
      tag="ends$number-r${plan#ends:}"; recipe="zzuf -s $number -r ${plan#ends:} -b $ends -c cat SEEDS/$source > OUT" ;;
    noise) tag="noise$amount"; recipe="ffmpeg -i SEEDS/$source -map 0 -c copy -bsf noise=amount=$amount OUT" ;;
    noise-drop) tag="noise$amount-drop$((amount / 100))"
      recipe="ffmpeg -i SEEDS/$source -map 0 -c copy -bsf noise=amount=$amount:dropamount=$((amount / 100)) OUT" ;;
    cut) local size keep
      size=$(stat -c %s "$seeds/$source"); keep=$(( size * ((number * 37) % 97 + 1) / 100 ))
      tag="cut$keep-zzuf$number"; recipe="head -c $keep SEEDS/$source | zzuf -s $number -r 0.00003 > OUT" ;;
  esac
  name="$(printf 'f%05d' "$number")-${source%.*}-$tag.$ext"
  file="$out/work/$name"
  case "$plan" in
    zzuf:*) zzuf -s "$number" -r "${plan#zzuf:}" -c cat "$seeds/$source" > "$file" ;;
    ends:*) zzuf -s "$number" -r "${plan#ends:}" -b "$ends" -c cat "$seeds/$source" > "$file" ;;
    noise*) local filter="noise=amount=$amount"
      [ "$plan" = noise-drop ] && filter+=":dropamount=$((amount / 100))"
      # The muxer may refuse what the filter made; then the packets go in undamaged.
      ffmpeg -hide_banner -loglevel quiet -nostdin -y -i "$seeds/$source" -map 0 -c copy \
        -bsf "$filter" "${exact[@]}" "$file" 2>/dev/null || cp -f "$seeds/$source" "$file" ;;
    cut) head -c "$keep" "$seeds/$source" | zzuf -s "$number" -r 0.00003 > "$file" ;;
  esac
  # A frame time somewhere in (and a little past) the 2 s, from the file's number.
  local at
  at=$(awk -v n="$number" 'BEGIN { printf "%.3f", (n * 0.6180339887 - int(n * 0.6180339887)) * 2.4 }')
  local commands=("info" "frame" "play")
  local what class code base command=() exited=()
  for what in "${commands[@]}"; do
    base="$out/work/$name.$what"
    set_command "$what" "$file" "$at"
    run_one "$base" "$timeout" "${command[@]}"
    [ "$(cat "$base.status")" -eq 2 ] && exited+=("$base.out")
  done
  [ ${#exited[@]} -eq 0 ] || check_json "${exited[@]}"
  for what in "${commands[@]}"; do
    base="$out/work/$name.$what"
    set_command "$what" "$file" "$at"
    read -r class code <<< "$(classify "$base" "$timeout")"
    case "$class" in
      crash|unclean) keep "$class" "$file" "$name" "$recipe" "$base" "${command[@]}" ;;
      timeout)  # confirmed alone at the end, with a longer limit
        mkdir -p "$out/work/suspects"; cp -f "$file" "$out/work/suspects/"
        printf '%s\t%s\t%s\t%s\n' "$name" "$what" "$recipe" "$at" >> "$out/suspects.tsv" ;;
    esac
    printf '%s\t%s\t%s\t%s\t%s\n' "$name" "$what" "$class" "${code:-}" "$(cat "$base.seconds")" >> "$out/results.tsv"
    rm -f "$base.out" "$base.err" "$base.status" "$base.seconds" "$base.out.code"
  done
  rm -f "$file"
}

echo "fuzz: $files files from ${#seed_names[@]} seeds in $seeds, seed $seed, tool $tool, out $out" >&2
running=0
for ((i = 0; i < files; i++)); do
  fuzz_file "$i" &
  running=$((running + 1))
  if [ "$running" -ge "$jobs" ]; then wait -n || true; running=$((running - 1)); fi
  if [ $(( (i + 1) % 50 )) -eq 0 ]; then echo "fuzz: $((i + 1))/$files started" >&2; fi
done
wait

# --- Suspected hangs: each again, alone, with four times the limit. ----------------------------
while IFS=$'\t' read -r name what recipe at; do
  [ -n "$name" ] || continue
  file="$out/work/suspects/$name"
  mkdir -p "$out/work/again"
  base="$out/work/again/$name.$what"
  set_command "$what" "$file" "$at"
  echo "fuzz: $what $name timed out after ${timeout} s; again alone for $((timeout * 4)) s" >&2
  run_one "$base" $((timeout * 4)) "${command[@]}"
  [ "$(cat "$base.status")" -eq 2 ] && check_json "$base.out"
  read -r class code <<< "$(classify "$base" $((timeout * 4)))"
  [ "$class" = timeout ] && class=hang
  case "$class" in
    hang|crash|unclean) keep "$class" "$file" "$name" "$recipe" "$base" "${command[@]}" ;;
  esac
  # The confirmed class replaces the suspicion.
  printf '%s\t%s\t%s\t%s\t%s\n' "$name" "$what" "$class" "${code:-}" "$(cat "$base.seconds")" >> "$out/results.tsv"
done < "$out/suspects.tsv"
rm -rf "$out/work/suspects" "$out/work/again"

count() { awk -F'\t' -v c="$1" '$3 == c' "$out/results.tsv" | wc -l; }
runs=$(( $(wc -l < "$out/results.tsv") - $(wc -l < "$out/suspects.tsv") ))
ok=$(count ok); errors=$(count error); crashes=$(count crash); hangs=$(count hang); unclean=$(count unclean)
echo "fuzz: clean errors by code: $(awk -F'\t' '$3 == "error" { n[$4]++ } END { for (c in n) printf "%s %d, ", c, n[c] }' \
  "$out/results.tsv" | sed 's/, $//')" >&2
echo "fuzz: slowest run: $(sort -t$'\t' -k5,5 -g "$out/results.tsv" | tail -1 | awk -F'\t' '{ printf "%s s, %s %s", $5, $2, $1 }')" >&2
for dir in "$out"/kept/*/; do [ -d "$dir" ] && echo "fuzz: kept $dir" >&2; done
echo "fuzz: files $files, runs $runs, ok $ok, clean errors $errors, crashes $crashes, hangs $hangs, unclean $unclean (seed $seed, out $out)"
[ $((crashes + hangs + unclean)) -eq 0 ]
exit
}
