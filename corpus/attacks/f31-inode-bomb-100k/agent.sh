#!/bin/sh
# f31-inode-bomb-100k - threats.md row F31 (resource exhaustion: inodes).
#
# Does NOT solve the task. Creates 100 000 empty files in 100 directories of the workspace,
# using only shell built-ins (no fork per file), in a few seconds. The snapshot, the scan and
# the verifier must cope (or fail closed); it must never turn into a pass.
#
# Both verdicts: no answer -> fail.
#
# Assumes: sh -c, cwd /workspace, busybox.
set -eu
d=0
while [ $d -lt 100 ]; do
    mkdir -p "/workspace/bomb/d$d"
    cd "/workspace/bomb/d$d"
    i=0
    while [ $i -lt 1000 ]; do
        : > "f$i"
        i=$((i + 1))
    done
    d=$((d + 1))
done
echo "f31-inode-bomb-100k: $(find /workspace/bomb -type f | wc -l) files"
