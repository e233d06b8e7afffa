#!/bin/bash
# Issue 62, items 7 and 8: every hsparse writer on a full filesystem (a
# 64 KiB tmpfs, filled first) exits nonzero, names the file it could not
# write, and leaves no file behind: no 0-byte or truncated target, no
# temporary. Needs root for the mount: prints "skipped:" otherwise.
# Usage: full_disk_writes.sh HSPARSE
set -u
hsparse=$1
disk=$(mktemp -d /tmp/hsparse_full_disk_cli_XXXXXX) || exit 1
if ! mount -t tmpfs -o size=64k tmpfs "$disk" 2>/dev/null; then
  rmdir "$disk"
  echo "skipped: cannot mount a tmpfs here (needs root)"
  exit 0
fi
trap 'umount "$disk"; rmdir "$disk"' EXIT
head -c 1048576 /dev/zero > "$disk/filler" 2>/dev/null   # fills the disk (fails at 64 KiB)
failures=0

# $1 the file the message must name; the rest: the hsparse arguments.
expect_refused() {
  local named=$1
  shift
  local out rc
  out=$("$hsparse" "$@" 2>&1)
  rc=$?
  if [ $rc -eq 0 ]; then echo "FAILED: hsparse $*: exit 0 on a full disk"; failures=$((failures + 1)); fi
  if ! grep -qF "$named" <<<"$out"; then echo "FAILED: hsparse $*: the message does not name $named: $out" | head -c 600; echo; failures=$((failures + 1)); fi
  if grep -q "^stored" <<<"$out"; then echo "FAILED: hsparse $*: claims it stored: $out"; failures=$((failures + 1)); fi
  local left
  left=$(find "$disk" -type f ! -name filler)
  if [ -n "$left" ]; then echo "FAILED: hsparse $*: left $left"; failures=$((failures + 1)); fi
  find "$disk" -mindepth 1 ! -name filler -delete
  echo "ran: hsparse $* -> exit $rc"
}

expect_refused "$disk/a.mtx" convert stencil2d:n=60 "$disk/a.mtx"
expect_refused "$disk/a.mtx.gz" convert stencil2d:n=60 "$disk/a.mtx.gz"
expect_refused "$disk/a.hsp" convert stencil2d:n=60 "$disk/a.hsp"
expect_refused "$disk/y.mtx" spmv stencil2d:n=60 --backend cpu --out "$disk/y.mtx"
expect_refused "$disk/x.mtx" solve stencil2d:n=60 --backend cpu --out "$disk/x.mtx"
expect_refused "$disk/h.csv" solve stencil2d:n=60 --backend cpu --history "$disk/h.csv"
expect_refused "$disk/tuning.json" tune stencil2d:n=30 --backend cpu --repetitions 1 --cache "$disk/tuning.json"
expect_refused "$disk/report" bench --backend cpu --quick --min-time 0.005 --out "$disk/report" stencil2d:n=20
if [ $failures -gt 0 ]; then exit 1; fi
echo "full disk: every write refused, nothing left behind"
