#!/bin/bash
# Oracle solution for conftest-rebuild-tool. Runs as root in the workdir (/app).
set -euo pipefail

mkdir -p /app/src/wc /app/build
: > /app/src/wc/__init__.py
cat > /app/src/wc/cli.py <<'PY'
import argparse
import collections
import sys


def main():
    p = argparse.ArgumentParser(prog="wc.pyz")
    p.add_argument("--top", type=int)
    args = p.parse_args()
    data = sys.stdin.buffer.read()
    if args.top is None:
        lines = data.count(b"\n")
        print(f"{lines} {len(data.split())} {len(data)}")
        return
    counts = collections.Counter(w.lower() for w in data.decode().split())
    for word, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:args.top]:
        print(f"{n} {word}")
PY
python3 -m zipapp /app/src -o /app/build/wc.pyz -m wc.cli:main -p '/usr/bin/env python3'
echo "one two two" | /app/build/wc.pyz
