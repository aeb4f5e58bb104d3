#!/bin/sh
# Oracle solution for empty-dirs. Runs as root in the workdir (/workspace); busybox only.
set -eu

cd /workspace
mkdir -p project/src project/tests/fixtures project/docs project/build/cache/objects \
    project/logs project/.config
: > project/empty-file
