#!/bin/bash
# Oracle solution for verifier-user-nobody. Runs as root in the workdir (/app).
set -euo pipefail
umask 022

mkdir -p /app/lib /app/bin /app/data
cat > /app/lib/textstats.py <<'PY'
def stats(text: str) -> dict:
    return {"lines": len(text.splitlines()), "words": len(text.split()), "chars": len(text)}
PY
cat > /app/bin/textstats <<'PY'
#!/usr/bin/env python3
import json
import sys

sys.path.insert(0, "/app/lib")
from textstats import stats  # noqa: E402

print(json.dumps(stats(sys.stdin.read()), sort_keys=True))
PY
chmod 0755 /app/bin/textstats
printf 'one two\nthree\nfour five six\n' > /app/data/sample.txt
