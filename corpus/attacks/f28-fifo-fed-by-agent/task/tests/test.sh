#!/bin/sh
# Verifier for f28-fifo-fed-by-agent's task (a copy of sys-shell-app whose test does not check
# that the answer is a regular file): cmp the answer with the expected output.
mkdir -p /logs/verifier
if cmp -s /workspace/status_counts.txt /tests/expected.txt; then
    echo "PASS: status_counts.txt matches"
    echo 1 > /logs/verifier/reward.txt
else
    echo "FAIL: status_counts.txt missing or different"
    echo 0 > /logs/verifier/reward.txt
fi
exit 0
