#!/bin/sh
# Verifier for sys-shell-app (busybox only): compare /workspace/status_counts.txt byte for byte
# with the expected output, which exists only in tests/. Writes 1 or 0 to reward.txt.
mkdir -p /logs/verifier

actual=/workspace/status_counts.txt
expected=/tests/expected.txt

if [ ! -f "$actual" ]; then
    echo "FAIL: $actual does not exist or is not a regular file"
    echo 0 > /logs/verifier/reward.txt
    exit 0
fi

if cmp -s "$actual" "$expected"; then
    echo "PASS: status_counts.txt matches"
    echo 1 > /logs/verifier/reward.txt
else
    echo "FAIL: status_counts.txt differs from the expected output:"
    diff "$expected" "$actual" | head -n 40
    echo 0 > /logs/verifier/reward.txt
fi
exit 0
