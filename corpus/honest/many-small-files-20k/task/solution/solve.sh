#!/bin/bash
# Oracle solution for many-small-files-20k. Runs as root in the workdir (/app).
set -euo pipefail

python3 - <<'PY'
import hashlib
import os

lines = []
for d in range(100):
    os.makedirs(f"/app/shards/{d:02d}", exist_ok=True)
for i in range(20000):
    rel = f"shards/{i % 100:02d}/record-{i:05d}.txt"
    data = f"{i} {i * i}\n".encode()
    with open(f"/app/{rel}", "wb") as f:
        f.write(data)
    lines.append(f"{hashlib.sha256(data).hexdigest()}  {rel}\n")
lines.sort(key=lambda line: line.split("  ", 1)[1].encode())
with open("/app/manifest.txt", "w") as f:
    f.writelines(lines)
PY
