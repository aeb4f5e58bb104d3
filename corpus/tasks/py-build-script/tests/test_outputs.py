"""Hidden tests for unitconv, imported from the build output (PYTHONPATH=/tmp/build)."""

import math

import pytest

import unitconv


def test_imported_from_build_output():
    assert unitconv.__file__.startswith("/tmp/build/")


@pytest.mark.parametrize("value,src,dst,expected", [
    (1, "m", "cm", 100.0),
    (2.5, "km", "m", 2500.0),
    (1, "in", "mm", 25.4),
    (1, "ft", "in", 12.0),
    (3, "ft", "yd", 1.0),
    (1, "mi", "km", 1.609344),
    (10, "mm", "in", 10 / 25.4),
    (0, "yd", "mi", 0.0),
])
def test_convert(value, src, dst, expected):
    got = unitconv.convert(value, src, dst)
    assert type(got) is float
    assert math.isclose(got, expected, rel_tol=1e-12, abs_tol=1e-12)


def test_round_trip():
    for unit in ("mm", "cm", "m", "km", "in", "ft", "yd", "mi"):
        assert math.isclose(unitconv.convert(unitconv.convert(7.25, "m", unit), unit, "m"), 7.25)


@pytest.mark.parametrize("src,dst", [("m", "parsec"), ("furlong", "m")])
def test_unknown_unit(src, dst):
    with pytest.raises(ValueError):
        unitconv.convert(1, src, dst)
