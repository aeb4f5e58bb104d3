#!/bin/bash
# Oracle solution for sys-nobody-app. Runs as root in the workdir (/app).
set -euo pipefail
mkdir -p /app/bin
cat > /app/bin/wordfreq <<'PY'
#!/usr/bin/env python3
import collections
import re
import sys

n = int(sys.argv[1]) if len(sys.argv) > 1 else 10
counts = collections.Counter(w.lower() for w in re.findall(r"[A-Za-z]+", sys.stdin.read()))
for word, count in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:n]:
    print(count, word)
PY
chmod 0755 /app/bin/wordfreq
