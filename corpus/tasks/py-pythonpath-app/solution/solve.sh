#!/bin/bash
# Oracle solution for py-pythonpath-app. Runs as root in the workdir (/app).
set -euo pipefail

cat > /app/intervals.py <<'PY'
def merge(intervals):
    out = []
    for a, b in sorted(intervals):
        if out and a <= out[-1][1]:
            if b > out[-1][1]:
                out[-1] = (out[-1][0], b)
        else:
            out.append((a, b))
    return out
PY
