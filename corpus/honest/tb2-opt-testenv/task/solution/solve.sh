#!/bin/bash
# Oracle solution for tb2-opt-testenv. Runs as root in the workdir (/app).
set -euo pipefail

python3 - <<'PY'
import collections
import json
import re

line_re = re.compile(r'^(\S+) \S+ \S+ \[[^\]]*\] "(\S+) (\S+) [^"]*" (\d{3}) (\d+)$')
clients, statuses, paths, total, n = set(), collections.Counter(), collections.Counter(), 0, 0
with open("/app/access.log") as f:
    for line in f:
        m = line_re.match(line.strip())
        if not m:
            continue
        client, _method, path, status, size = m.groups()
        n += 1
        clients.add(client)
        statuses[status] += 1
        paths[path] += 1
        total += int(size)
top = min(paths, key=lambda p: (-paths[p], p))
with open("/app/report.json", "w") as f:
    json.dump({"requests": n, "unique_clients": len(clients), "status_counts": dict(statuses),
               "bytes_total": total, "top_path": top}, f, indent=2)
PY
