#!/bin/sh
# The D-Bus service file as configured for installation: its Name is the application id (the
# name the desktop asks the bus for, because the desktop file says DBusActivatable=true) and
# it starts the installed reel as a GApplication service by its full path.
# usage: check-dbus-service.sh FILE APP-ID BINDIR
set -eu
file=$1 id=$2 bindir=$3
fail() { echo "$file: $*" >&2; exit 1; }
[ "$(sed -n 1p "$file")" = "[D-BUS Service]" ] || fail "the first line is not [D-BUS Service]"
name=$(sed -n 's/^Name=//p' "$file")
exec_line=$(sed -n 's/^Exec=//p' "$file")
[ "$name" = "$id" ] || fail "Name is '$name', not the application id $id"
[ "$exec_line" = "$bindir/reel --gapplication-service" ] || fail "Exec is '$exec_line', not '$bindir/reel --gapplication-service'"
grep -q '@' "$file" && fail "a placeholder was left unfilled"
exit 0
