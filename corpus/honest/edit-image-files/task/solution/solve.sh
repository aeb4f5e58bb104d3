#!/bin/bash
# Oracle solution for edit-image-files. Runs as root in the workdir (/app).
set -euo pipefail

python3 - <<'PY'
path = "/app/calc/ops.py"
src = open(path).read()
old = """def mean(values):
    # BUG: integer division, and an empty list crashes
    return sum(values) // len(values)
"""
new = """def mean(values):
    values = list(values)
    if not values:
        return 0.0
    return sum(values) / len(values)
"""
assert old in src
open(path, "w").write(src.replace(old, new))
PY
mv /app/calc/helpers_old.py /app/calc/helpers.py
rm -rf /app/legacy
echo 1.0.0 > /app/VERSION
