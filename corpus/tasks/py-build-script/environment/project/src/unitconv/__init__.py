"""Convert between units of length. The table of units (unitconv._table.METRES, metres per
unit) is generated from units.csv by build.py."""


def convert(value: float, from_unit: str, to_unit: str) -> float:
    """Convert ``value`` from ``from_unit`` to ``to_unit``."""
    raise NotImplementedError
