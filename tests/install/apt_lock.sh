#!/usr/bin/env bash
# scripts/install-deps.sh waits for dpkg's lock instead of failing at once
# (issue 62, item 13). Holds the lock that apt and dpkg take
# (/var/lib/dpkg/lock-frontend, an fcntl lock, as apt takes it) for a few
# seconds in the background, then runs an install through the script: it
# must wait for the lock and succeed. Needs root and Debian's apt; skips
# with a message otherwise.
set -euo pipefail
root=$1
python=${2:-/usr/bin/python3}
if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null || [ ! -e /var/lib/dpkg/lock-frontend ]; then
  echo "skipped: needs root and apt (dpkg's lock)"
  exit 0
fi
hold=6
"$python" - "$hold" <<'PY' &
import fcntl, sys, time
with open("/var/lib/dpkg/lock-frontend", "w") as f:
    fcntl.lockf(f, fcntl.LOCK_EX)
    print("holding dpkg's lock", flush=True)
    time.sleep(float(sys.argv[1]))
PY
holder=$!
sleep 1
start=$(date +%s)
HSPARSE_APT_ALWAYS=1 HSPARSE_APT_LOCK_TIMEOUT=120 "$root/scripts/install-deps.sh"
waited=$(( $(date +%s) - start ))
wait "$holder"
if [ "$waited" -lt 3 ]; then
  echo "FAILED: install-deps.sh returned after ${waited} s while the lock was held for ${hold} s"
  exit 1
fi
echo "install-deps.sh waited ${waited} s for dpkg's lock, then succeeded: PASSED"
