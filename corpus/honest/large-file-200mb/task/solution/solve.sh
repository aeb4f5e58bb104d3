#!/bin/sh
# Oracle solution for large-file-200mb. Runs as root in the workdir (/workspace); busybox only.
set -eu

cd /workspace
yes 'fcv corpus: a 200 MiB file, written fast' | head -c 209715200 > blob.bin
sha256sum blob.bin > blob.sha256
