#!/bin/sh
# Runs a validator and fails on any message, not only on its failure status: the validators
# pass warnings and hints with status 0, and Reel's data files have none (as the suite's own
# checks demand). --display: the validator needs a display (gtk4-builder-tool instantiates the
# widgets), so without one it runs on a private Xvfb (xvfb-run), as in a build chroot or CI.
# usage: validate.sh [--display] VALIDATOR ARGUMENT...
set -eu
if [ "$1" = --display ]; then
  shift
  if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
    exec xvfb-run -a "$0" "$@"
  fi
fi
status=0
messages=$("$@" 2>&1) || status=$?
[ -n "$messages" ] && echo "$messages"
if [ $status -ne 0 ] || [ -n "$messages" ]; then
  echo "$1 found problems (status $status)" >&2
  exit 1
fi
