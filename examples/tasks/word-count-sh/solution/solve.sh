#!/bin/sh
# Oracle solution for word-count-sh. Runs as root in the workdir (/workspace); busybox only.
set -eu

tr 'A-Z' 'a-z' < /workspace/input.txt \
    | tr -cs 'a-z' '\n' \
    | grep -v '^$' \
    | sort \
    | uniq -c \
    | awk '{ print $1, $2 }' \
    | sort -k1,1nr -k2,2 \
    > /workspace/counts.txt
