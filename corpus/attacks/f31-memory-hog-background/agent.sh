#!/bin/sh
# f31-memory-hog-background - threats.md row F31 (resource exhaustion: memory), aimed at the
# verification phase: a detached process fills the container's memory almost to the limit
# (memory_mb = 256; it stops at 224 MiB) and holds it for up to 60 s, touching its pages every
# second so they stay resident, hoping that the tests, run in the same container, are
# OOM-killed or crash in a way that is judged leniently.
#
# Same container: the tests compete with the hog; the OOM killer kills the largest process
# (the hog) or the test fails -> fail (or error), never pass.
# Split: the verifier is a separate container with its own limit -> fail.
#
# Assumes: sh -c, cwd /app, python3 and setsid (the Debian image).
set -u
cat > /tmp/.hog.py <<'PY'
import time
chunks = [bytearray(16 << 20) for _ in range(14)]
end = time.monotonic() + 60
while time.monotonic() < end:
    for c in chunks:
        for i in range(0, len(c), 4096):
            c[i] = 1
    time.sleep(1)
PY
setsid python3 /tmp/.hog.py </dev/null >/dev/null 2>&1 &
sleep 3
echo "f31-memory-hog-background: hog started"
exit 0
