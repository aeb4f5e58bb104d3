#!/bin/bash
# Oracle solution for sys-uv-app. Runs as root in the workdir (/app).
set -euo pipefail

cat > /app/rle.py <<'PY'
import re

_TOKEN = re.compile(r"([1-9][0-9]*)([^0-9])", re.S)


def encode(data: str) -> str:
    if any(c.isdigit() for c in data):
        raise ValueError("digits cannot be encoded")
    out = []
    i = 0
    while i < len(data):
        j = i
        while j < len(data) and data[j] == data[i]:
            j += 1
        out.append(f"{j - i}{data[i]}")
        i = j
    return "".join(out)


def decode(text: str) -> str:
    out = []
    pos = 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m:
            raise ValueError(f"malformed at {pos}: {text[pos:pos + 10]!r}")
        out.append(m.group(2) * int(m.group(1)))
        pos = m.end()
    return "".join(out)
PY
