#!/bin/sh
# Oracle solution for sys-scratch-app. Runs as root in /workspace; busybox only.
set -eu
sed -e 's/#.*//' -e 's/[[:space:]]//g' -e 's/:[0-9]*$//' /workspace/hosts.conf \
    | tr 'A-Z' 'a-z' | grep -v '^$' | sort -u > /workspace/allowlist.txt
