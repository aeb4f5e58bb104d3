#!/bin/sh
# Oracle solution for sys-shell-app. Runs as root in /workspace; busybox only.
set -eu
awk -F'"' '{ split($3, f, " "); print f[1] }' /workspace/access.log \
    | sort | uniq -c | awk '{ print $2, $1 }' | sort -k2,2nr -k1,1 \
    > /workspace/status_counts.txt
