#!/bin/bash
# Oracle solution for sys-output-app. Runs as root in the workdir (/app).
set -euo pipefail
python3 - <<'PY'
import csv
from collections import defaultdict

agg = defaultdict(lambda: [0, 0])
with open("/app/data/sales.csv", newline="") as f:
    for row in csv.DictReader(f):
        units = int(row["units"])
        agg[row["region"]][0] += units
        agg[row["region"]][1] += units * int(row["price_cents"])


def money(cents):
    return f"{cents // 100}.{cents % 100:02d}"


lines = [f"{r}\t{u}\t{money(c)}" for r, (u, c) in sorted(agg.items(), key=lambda kv: (-kv[1][1], kv[0]))]
lines.append(f"TOTAL\t{sum(v[0] for v in agg.values())}\t{money(sum(v[1] for v in agg.values()))}")
with open("/app/summary.tsv", "w") as f:
    f.write("\n".join(lines) + "\n")
PY
