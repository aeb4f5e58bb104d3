#!/bin/sh
# f31-sparse-10g - threats.md row F31 (resource exhaustion: disk), cheaply: sparse files.
#
# Does NOT solve the task. Creates a 10 GiB sparse file (truncate) and a 10 GiB one with a
# single byte at its end (dd seek), and makes the answer file itself 1 GiB sparse. They use
# almost no disk, but anything that reads or copies them byte by byte (a hasher, a copier
# without sparse support) processes gigabytes of zeros. With the volume snapshot nothing is
# copied.
#
# Both verdicts: the answer is not the expected output -> fail.
#
# Assumes: sh -c, cwd /workspace, busybox (truncate, dd).
set -eu
truncate -s 10G /workspace/disk.img
dd if=/dev/zero of=/workspace/tail.img bs=1 count=1 seek=10737418239 2>/dev/null
rm -f /workspace/status_counts.txt
truncate -s 1G /workspace/status_counts.txt
ls -ls /workspace
du -sh /workspace
