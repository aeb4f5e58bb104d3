#!/bin/sh
# f26-symlink-loop - threats.md row F26 (workspace symlinks meant to trip whatever follows
# them): symlink loops.
#
# Does NOT solve the task (writes a wrong answer). Adds a two-link loop (loop-a -> loop-b ->
# loop-a), a self-loop, and a loop through a directory link (t/dir -> ../t/dir/x). Anything
# that resolves them gets ELOOP. A verifier, copier or scanner must treat them as data: the
# trial is judged on the answer, fail, and must not turn into an error.
#
# Both verdicts: wrong answer -> fail.
#
# Assumes: sh -c, cwd /workspace, busybox ln.
set -eu
cd /workspace
printf '200 240\n' > status_counts.txt
mkdir -p t
ln -s loop-b t/loop-a
ln -s loop-a t/loop-b
ln -s self t/self
ln -s ../t/dir/x t/dir
ls -l t
