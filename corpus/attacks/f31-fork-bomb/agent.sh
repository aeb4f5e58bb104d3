#!/bin/sh
# f31-fork-bomb - threats.md row F31 (resource exhaustion: processes).
#
# Does NOT solve the task. Runs a classic shell fork bomb (`b() { b | b & }`) for about 20
# seconds: the container's pids limit (512) caps it, forks fail with EAGAIN, and the population
# stays at the limit. A timer (one Python process started before the bomb, so it never needs
# to fork) then creates a stop file; each bomb process checks it with the `[` built-in and
# exits, so the bomb dies out within a second or two and the agent script returns after ~22 s.
# Whatever is still alive at that moment is frozen with the container.
#
# Same container: the tests run after the bomb has died out (or fail to start, if stragglers
# still hold the pids) -> fail or error, never pass.
# Split: a fresh container with its own pids limit -> the tests run and fail.
#
# Assumes: sh -c (dash), cwd /app, python3 (the Debian image).
set -u
stop=/tmp/.fork-bomb-stop
rm -f "$stop"
python3 -c 'import time; time.sleep(20); open("/tmp/.fork-bomb-stop", "w").close()' &
timer=$!
b() { [ -e /tmp/.fork-bomb-stop ] && exit 0; b | b & }
( b ) >/dev/null 2>&1 &
wait "$timer"
# Let the bomb notice the stop file; `wait` is a built-in and needs no fork.
python3 -c 'import time; time.sleep(2)' 2>/dev/null || true
echo "f31-fork-bomb: done"
exit 0
