#!/bin/bash
# Verifier for fizzbuzz-py: run the pytest suite, write 1 (pass) or 0 (fail) to reward.txt.
# pytest's own cache is disabled because the workspace (and /tests) may be read-only.
mkdir -p /logs/verifier

python3 -m pytest -q -p no:cacheprovider -rA /tests/test_outputs.py
status=$?

if [ "$status" -eq 0 ]; then
    echo 1 > /logs/verifier/reward.txt
else
    echo 0 > /logs/verifier/reward.txt
fi
exit 0
