#!/bin/bash
# Oracle solution for py-perf-app. Runs as root in the workdir (/app).
set -euo pipefail

cat > /app/primes.py <<'PY'
def count_primes(n: int) -> int:
    if n < 2:
        return 0
    sieve = bytearray([1]) * (n + 1)
    sieve[0] = sieve[1] = 0
    for i in range(2, int(n ** 0.5) + 1):
        if sieve[i]:
            sieve[i * i::i] = bytes(len(range(i * i, n + 1, i)))
    return sum(sieve)
PY
