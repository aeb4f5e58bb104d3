#!/bin/bash
# Oracle solution for hidden-fixtures-opt. Runs as [agent].user = worker in the workdir (/app).
set -euo pipefail

python3 - <<'PY'
import csv
import glob
import json

readings = {}
for path in sorted(glob.glob("/app/input/*.csv")):
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            readings.setdefault(row["sensor"], []).append(float(row["reading"]))
summary = {s: {"count": len(v), "min": min(v), "max": max(v), "mean": round(sum(v) / len(v), 3)}
           for s, v in sorted(readings.items())}
with open("/app/summary.json", "w") as f:
    json.dump(summary, f, indent=2)
PY
