#!/bin/bash
# Oracle solution for py-pytest-tests-cwd. Runs as root in the workdir (/app).
set -euo pipefail

cat > /app/roman.py <<'PY'
_VALUES = [(1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),
           (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")]


def to_roman(n: int) -> str:
    if not 1 <= n <= 3999:
        raise ValueError(f"out of range: {n}")
    out = []
    for value, symbol in _VALUES:
        count, n = divmod(n, value)
        out.append(symbol * count)
    return "".join(out)


def from_roman(s: str) -> int:
    i = total = 0
    for value, symbol in _VALUES:
        while s.startswith(symbol, i):
            total += value
            i += len(symbol)
    if i != len(s) or to_roman(total) != s:
        raise ValueError(f"not a canonical roman numeral: {s!r}")
    return total
PY
