#!/bin/bash
# Oracle solution for sys-grader-app. Runs as root in the workdir (/app).
set -euo pipefail
cat > /app/stats.py <<'PY'
import math


def _check(xs):
    xs = list(xs)
    if not xs:
        raise ValueError("empty data")
    return xs


def mean(xs):
    xs = _check(xs)
    return math.fsum(xs) / len(xs)


def median(xs):
    xs = sorted(_check(xs))
    mid = len(xs) // 2
    return float(xs[mid]) if len(xs) % 2 else (xs[mid - 1] + xs[mid]) / 2


def stdev(xs):
    xs = _check(xs)
    if len(xs) == 1:
        return 0.0
    m = mean(xs)
    return math.sqrt(math.fsum((x - m) ** 2 for x in xs) / (len(xs) - 1))
PY
