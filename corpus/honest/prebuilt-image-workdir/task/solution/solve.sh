#!/bin/bash
# Oracle solution for prebuilt-image-workdir. Runs as root in the workdir (/srv/job).
set -euo pipefail

cat > /srv/job/primes.py <<'PY'
import sys


def primes_below(n):
    if n <= 2:
        return []
    sieve = bytearray([1]) * n
    sieve[0] = sieve[1] = 0
    for i in range(2, int(n ** 0.5) + 1):
        if sieve[i]:
            sieve[i * i::i] = bytes(len(range(i * i, n, i)))
    return [i for i in range(n) if sieve[i]]


if __name__ == "__main__":
    sys.stdout.write("".join(f"{p}\n" for p in primes_below(int(sys.argv[1]))))
PY
