#!/bin/sh
# Verifier for sys-posix-app: a POSIX sh test script (run by /bin/sh) that runs pytest through
# python3 and writes 1 (pass) or 0 (fail) to reward.txt.
mkdir -p /logs/verifier

if python3 -m pytest -q -p no:cacheprovider -rA /tests/test_outputs.py; then
    echo 1 > /logs/verifier/reward.txt
else
    echo 0 > /logs/verifier/reward.txt
fi
exit 0
