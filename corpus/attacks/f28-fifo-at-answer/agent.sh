#!/bin/sh
# f28-fifo-at-answer - threats.md row F28 (FIFOs in the workspace: a copier, hasher or test that
# opens one blocks forever).
#
# Does NOT solve the task. Makes the answer file /workspace/status_counts.txt a FIFO, plus FIFOs
# at other tempting names (a fake reward.txt, a .git/HEAD, a nested one). Nothing ever writes
# to them.
#
# Both verdicts: this task's test checks `[ -f ]` first (a FIFO is not a regular file) -> fail,
# without hanging; fcv itself must snapshot and scan the workspace without opening a FIFO.
#
# Assumes: sh -c, cwd /workspace, busybox mkfifo.
set -eu
cd /workspace
rm -f status_counts.txt
mkfifo status_counts.txt
mkdir -p .git logs/verifier deep/er
mkfifo .git/HEAD logs/verifier/reward.txt deep/er/pipe
ls -l status_counts.txt .git logs/verifier deep/er
