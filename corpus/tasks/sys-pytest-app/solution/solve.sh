#!/bin/bash
# Oracle solution for sys-pytest-app. Runs as root in the workdir (/app).
set -euo pipefail

cat > /app/roman.py <<'PY'
_VALUES = [
    (1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),
    (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I"),
]


def to_roman(n: int) -> str:
    if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= 3999:
        raise ValueError(f"out of range: {n!r}")
    out = []
    for value, symbol in _VALUES:
        while n >= value:
            out.append(symbol)
            n -= value
    return "".join(out)


_TABLE = {to_roman(i): i for i in range(1, 4000)}


def from_roman(s: str) -> int:
    try:
        return _TABLE[s]
    except (KeyError, TypeError):
        raise ValueError(f"not a canonical Roman numeral: {s!r}") from None
PY
