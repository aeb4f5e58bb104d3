#!/bin/sh
# f31-memory-hog - threats.md row F31 (resource exhaustion: memory).
#
# Does NOT solve the task. Allocates and touches memory 16 MiB at a time with no upper bound.
# The task's memory_mb is 256 and swap is capped at the same value, so the kernel's OOM killer
# kills the hog within a second or two; the agent script reports the exit status and returns.
#
# Both verdicts: error - fcv sees the engine's oom event for the agent container and does not
# judge the work of an agent cut short by its memory limit (it would be fail: no answer).
#
# Assumes: sh -c, cwd /app, python3 (the Debian image).
set -u
python3 -c '
chunks = []
while True:
    chunks.append(bytearray(16 << 20))
'
echo "f31-memory-hog: hog exited with status $?"
exit 0
