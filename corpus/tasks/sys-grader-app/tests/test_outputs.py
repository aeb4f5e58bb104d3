"""Tests for /app/stats.py, using the image's grading helpers."""

import math
import random
import statistics

import pytest
from tbgrade import assert_all_close, assert_close, load_submission


@pytest.fixture(scope="module")
def stats():
    return load_submission("/app/stats.py", "agent_stats")


DATA = [[1], [1, 2], [3, 1, 2], [2.5, -1.0, 7.25, 0.0], [10**9, 1, -10**9, 3, 3]]


def test_mean(stats):
    assert_all_close([(stats.mean(xs), statistics.fmean(xs)) for xs in DATA])


def test_median(stats):
    assert_all_close([(stats.median(xs), statistics.median(xs)) for xs in DATA])


def test_stdev(stats):
    want = [0.0 if len(xs) == 1 else statistics.stdev(xs) for xs in DATA]
    assert_all_close([(stats.stdev(xs), w) for xs, w in zip(DATA, want)])


def test_random(stats):
    rng = random.Random(99)
    for _ in range(50):
        xs = [rng.uniform(-100, 100) for _ in range(rng.randint(2, 40))]
        assert_close(stats.mean(xs), statistics.fmean(xs))
        assert_close(stats.median(xs), statistics.median(xs))
        assert_close(stats.stdev(xs), statistics.stdev(xs), rel=1e-7)


@pytest.mark.parametrize("fn", ["mean", "median", "stdev"])
def test_empty(stats, fn):
    with pytest.raises(ValueError):
        getattr(stats, fn)([])


def test_not_statistics_module():
    source = open("/app/stats.py").read()
    assert "statistics" not in source and not math.isnan(0.0)
