#!/bin/bash
# Oracle solution for py-build-script. Runs as root in the workdir (/app).
set -euo pipefail

cat > /app/src/unitconv/__init__.py <<'PY'
"""Convert between units of length. The table of units (unitconv._table.METRES, metres per
unit) is generated from units.csv by build.py."""

from ._table import METRES


def convert(value: float, from_unit: str, to_unit: str) -> float:
    """Convert ``value`` from ``from_unit`` to ``to_unit``."""
    try:
        factor = METRES[from_unit] / METRES[to_unit]
    except KeyError as e:
        raise ValueError(f"unknown unit: {e.args[0]!r}") from None
    return float(value) * factor
PY
