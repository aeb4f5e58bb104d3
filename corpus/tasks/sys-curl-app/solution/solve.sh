#!/bin/bash
# Oracle solution for sys-curl-app. Runs as root in the workdir (/app).
set -euo pipefail

cat > /app/isbn.py <<'PY'
def _clean(s):
    return s.replace("-", "").replace(" ", "") if isinstance(s, str) else ""


def _valid10(s):
    if len(s) != 10 or not s[:9].isdigit() or not (s[9].isdigit() or s[9] == "X"):
        return False
    if not s[:9].isascii():
        return False
    digits = [int(c) for c in s[:9]] + [10 if s[9] == "X" else int(s[9])]
    return sum((10 - i) * d for i, d in enumerate(digits)) % 11 == 0


def _check13(first12):
    total = sum(int(c) * (1 if i % 2 == 0 else 3) for i, c in enumerate(first12))
    return str((10 - total % 10) % 10)


def _valid13(s):
    return len(s) == 13 and s.isdigit() and s.isascii() and _check13(s[:12]) == s[12]


def is_valid(isbn):
    s = _clean(isbn)
    return _valid10(s) or _valid13(s)


def to_isbn13(isbn10):
    s = _clean(isbn10)
    if not _valid10(s):
        raise ValueError(f"not a valid ISBN-10: {isbn10!r}")
    first12 = "978" + s[:9]
    return first12 + _check13(first12)
PY
