#!/bin/sh
# Verifier for word-count-sh (busybox only): compare /workspace/counts.txt byte for byte with
# the expected output, which exists only in tests/. Writes 1 (pass) or 0 (fail) to reward.txt.
mkdir -p /logs/verifier

actual=/workspace/counts.txt
expected=/tests/expected.txt

if [ ! -f "$actual" ]; then
    echo "FAIL: $actual does not exist"
    echo 0 > /logs/verifier/reward.txt
    exit 0
fi

if cmp -s "$actual" "$expected"; then
    echo "PASS: counts.txt matches"
    echo 1 > /logs/verifier/reward.txt
else
    echo "FAIL: counts.txt differs from the expected output:"
    diff "$expected" "$actual" | head -n 40
    echo 0 > /logs/verifier/reward.txt
fi
exit 0
