#!/usr/bin/env bash
# Runs the engine tests (Tests/ReelEngineTests, and the engine's unit suites in
# Tests/ReelUnitTests/Engine) under AddressSanitizer and/or ThreadSanitizer,
# each build in its own directory (.build-asan, .build-tsan), and fails if a test fails or any
# sanitizer report was written: by the test process or by a reel-tool or reel-bench it started.
# The tool and bench tests (ReelToolTests, BenchToolTests, parts of SubtitleTests) run the
# reel-tool and reel-bench built beside the test bundle (reel-bench runs that reel-tool in
# turn), so they run the sanitized engine in a child process: its reports land in the report
# folder, and a report also changes its exit status (1 after a leak, 66 after a race), which
# fails the test that started it. Their peers (ffmpeg, mpv) are not sanitized and are not judged.
#   scripts/sanitize.sh address|thread|all [SWIFT-TEST-FILTER]
#   scripts/sanitize.sh thread 'ReelEngineTests\.(SubtitleTests|GaplessTests)'   # a chunk of suites
# Reports go to .build-<asan|tsan>/sanitizer-reports/<name>.<pid>, one file per process that
# reported; the suppression files with the reason for each entry are in scripts/sanitizers/.
#
# Left out: the Memory suite. It measures the allocator (glibc's heap in use, RSS), and under
# a sanitizer the allocator is the sanitizer's (ASan holds freed memory in quarantine, shadow
# memory counts towards RSS; `reel-tool play` reports a heap of 0 MiB and 280 MiB RSS for the
# 320x240 clip), so its figures would say nothing about our code. Its two workloads still run,
# shortened and unjudged, through the sanitized reel-tool after the tests: a hundred opens in
# one player and three playthroughs at full speed, for the leak checker and ThreadSanitizer.
# SANITIZE_SKIP (a swift test --skip pattern) overrides what is left out.
#
# A sanitized build runs our code several times slower, so the few tests that judge real-time
# behaviour (the sound device running dry in Playing unwatched, clicks in Audio continuity)
# can fail on a busy machine without any report: run that suite again alone, as a chunk,
# before taking it for a bug. A sanitizer report is never a matter of load.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
mode="${1:-}"
chunk="${2:-}"
filter="${chunk:-ReelEngineTests|ReelUnitTests}"
skip="${SANITIZE_SKIP:-ReelEngineTests.MemoryTests}"
symbolizer="$(dirname "$(readlink -f "$(command -v swift)")")/llvm-symbolizer"
supp="$root/scripts/sanitizers"

run() {
  local sanitizer="$1" short="$2"
  local scratch="$root/.build-$short"
  local reports="$scratch/sanitizer-reports"
  echo "sanitize: building the tests with -sanitize=$sanitizer into $scratch" >&2
  swift build --build-tests --sanitize "$sanitizer" --scratch-path "$scratch" >&2
  rm -rf "$reports"
  mkdir -p "$reports"
  local status=0
  echo "sanitize: running $filter (skipping ${skip:-nothing}) under $sanitizer" >&2
  local args=(--skip-build --sanitize "$sanitizer" --scratch-path "$scratch" --no-parallel --filter "$filter")
  [ -n "$skip" ] && args+=(--skip "$skip")
  # log_path: each process writes its reports to its own file, so reports of a reel-tool
  # child are kept even though the test only sees its exit status.
  local options
  case "$short" in
    asan)
      options=("ASAN_OPTIONS=log_path=$reports/asan:detect_leaks=1:suppressions=$supp/asan.supp"
               "LSAN_OPTIONS=suppressions=$supp/lsan.supp:print_suppressions=0"
               "ASAN_SYMBOLIZER_PATH=$symbolizer")
      ;;
    tsan)
      # halt_on_error=0: every race of the run is reported, not only the first; the process
      # then exits with 66, which fails the run (and a reel-tool child's test).
      options=("TSAN_OPTIONS=log_path=$reports/tsan:halt_on_error=0:second_deadlock_stack=1:print_suppressions=0:suppressions=$supp/tsan.supp:external_symbolizer_path=$symbolizer")
      ;;
  esac
  ( export "${options[@]}"; swift test "${args[@]}" ) || status=$?
  # The workloads belong to a whole run, not to a chunk of suites.
  if [ -z "$chunk" ]; then
    ( export "${options[@]}"; workloads "$scratch/debug/reel-tool" "$scratch/sanitize-media" ) || status=$?
  fi
  local found
  found="$(find "$reports" -type f -size +0 | sort)"
  if [ -n "$found" ]; then
    echo "sanitize: $sanitizer reports in:" >&2
    echo "$found" >&2
    for f in $found; do echo "==== $f" >&2; cat "$f" >&2; done
    status=1
  fi
  echo "sanitize: $sanitizer finished with status $status" >&2
  return "$status"
}

# The Memory suite's workloads, shortened, on two clips made here (the tests' fixtures are
# named by a hash of their recipe). Run with the caller's sanitizer options.
workloads() {
  local tool="$1" media="$2"
  mkdir -p "$media"
  local long="$media/long-small.mp4" short="$media/short.mp4"
  [ -f "$long" ] || ffmpeg -v error -y -f lavfi -i testsrc2=size=320x240:rate=30:duration=20 \
    -f lavfi -i sine=frequency=440:duration=20 -c:v libx264 -preset veryfast -g 60 -pix_fmt yuv420p \
    -c:a aac -b:a 64k "$long"
  [ -f "$short" ] || ffmpeg -v error -y -f lavfi -i testsrc2=size=640x360:rate=30:duration=4 \
    -f lavfi -i sine=frequency=440:duration=4 -c:v libx264 -preset veryfast -g 30 -bf 3 -pix_fmt yuv420p \
    -c:a aac -b:a 96k "$short"
  echo "sanitize: workloads: 100 switches, 3 playthroughs at full speed" >&2
  # Called on the left of ||, where set -e does not apply: each failure is counted here.
  local rc=0
  "$tool" switch "$long" "$short" --count 100 --every 50 --audio null >/dev/null || rc=1
  "$tool" play "$long" --max-speed --loop 3 --json >/dev/null || rc=1
  return "$rc"
}

case "$mode" in
  address) run address asan ;;
  thread) run thread tsan ;;
  all)
    rc=0
    run address asan || rc=1
    run thread tsan || rc=1
    exit "$rc"
    ;;
  *) echo "usage: $0 address|thread|all [SWIFT-TEST-FILTER]" >&2; exit 2 ;;
esac
