#!/bin/bash
# Oracle solution for symlink-to-image-dataset. Runs as root in the workdir (/app).
set -euo pipefail

ln -sfn /opt/dataset /app/data
: > /app/counts.tsv
for f in /app/data/*.txt; do
    printf '%s\t%s\n' "$(basename "$f")" "$(wc -l < "$f")" >> /app/counts.tsv
done
