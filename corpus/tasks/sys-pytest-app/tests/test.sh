#!/bin/bash
# Verifier for sys-pytest-app: run the pytest suite with the `pytest` command, write 1 (pass) or
# 0 (fail) to reward.txt. The workspace may be read-only, so pytest's cache is off.
mkdir -p /logs/verifier

pytest -q -p no:cacheprovider -rA /tests/test_outputs.py
status=$?

if [ "$status" -eq 0 ]; then
    echo 1 > /logs/verifier/reward.txt
else
    echo 0 > /logs/verifier/reward.txt
fi
exit 0
