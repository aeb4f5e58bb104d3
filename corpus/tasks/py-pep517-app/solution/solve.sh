#!/bin/bash
# Oracle solution for py-pep517-app. Runs as root in the workdir (/app).
set -euo pipefail

cat > /app/src/rlecodec/__init__.py <<'PY'
"""Run-length encoding of strings."""

import itertools
import re

_RUN = re.compile(r"([1-9][0-9]*)([^0-9])")


def encode(text: str) -> str:
    return "".join(f"{len(list(group))}{char}" for char, group in itertools.groupby(text))


def decode(encoded: str) -> str:
    out, pos = [], 0
    for match in _RUN.finditer(encoded):
        if match.start() != pos:
            break
        out.append(match.group(2) * int(match.group(1)))
        pos = match.end()
    if pos != len(encoded):
        raise ValueError(f"malformed run-length encoding at offset {pos}: {encoded!r}")
    return "".join(out)
PY
