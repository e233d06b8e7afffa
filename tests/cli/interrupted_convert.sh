#!/bin/bash
# Issue 62, item 7: `hsparse convert` killed while it writes (SIGINT, SIGTERM,
# SIGKILL) leaves no file under the target name, or a complete one (the
# reader reads it back); SIGINT and SIGTERM also leave no temporary.
# The signal is sent once the temporary exists, i.e. during the write.
# Usage: interrupted_convert.sh HSPARSE WORKDIR
set -u
set -m   # job control: background jobs do not start with SIGINT ignored
hsparse=$1
work=$2
rm -rf "$work" && mkdir -p "$work" || exit 1
cd "$work" || exit 1
spec=stencil3d:n=60   # 216000 rows, 5.6 M nonzeros: about 110 MB of text
failures=0
fail() { echo "FAILED: $*"; failures=$((failures + 1)); }

# $1 signal, $2 target, $3 "old" when an older complete target exists first.
one_round() {
  local sig=$1 target=$2 old=${3:-}
  rm -f "$target" ."$target".tmp-*
  if [ "$old" = old ]; then "$hsparse" convert stencil2d:n=3 "$target" 2>/dev/null || fail "$sig: cannot write the old target"; fi
  "$hsparse" convert "$spec" "$target" 2>/dev/null &
  local pid=$! tries=0
  # Wait (polling, not timing) until the write has begun: the temporary (or,
  # for a writer that writes in place, a new target) appears; then signal.
  until compgen -G ".$target.tmp-*" >/dev/null || { [ "$old" != old ] && [ -e "$target" ]; } ||
        ! kill -0 "$pid" 2>/dev/null || [ $tries -ge 12000 ]; do
    sleep 0.01
    tries=$((tries + 1))
  done
  kill -s "$sig" "$pid" 2>/dev/null
  wait "$pid"
  local rc=$?
  if [ -e "$target" ]; then
    echo "$sig${old:+ (over an old target)}: exit status $rc, $target present"
    "$hsparse" info "$target" >/dev/null 2>info.err || fail "$sig: $target is there but incomplete: $(head -c 300 info.err)"
  else
    echo "$sig${old:+ (over an old target)}: exit status $rc, $target absent"
  fi
  if [ "$sig" != KILL ] && compgen -G ".$target.tmp-*" >/dev/null; then
    fail "$sig: a temporary was left: $(ls -a)"
  fi
  rm -f ."$target".tmp-*
}

# .mtx.gz: compressing 70 MB takes a second or more, a wide window for the signal.
one_round INT out.mtx.gz
one_round TERM out.mtx.gz
one_round KILL out.mtx.gz
one_round KILL out.mtx.gz old
one_round TERM out.mtx
one_round TERM out.hsp old
rm -f out.mtx out.mtx.gz out.hsp info.err   # files that no one needs
if [ $failures -gt 0 ]; then exit 1; fi
echo "interrupted convert: every target absent or complete"
