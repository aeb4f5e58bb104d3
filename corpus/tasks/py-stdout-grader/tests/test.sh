#!/bin/bash
# Verifier for py-stdout-grader, SWE-bench style: pytest's -rA output is saved to a log, and a
# log parser decides the reward from the status lines (PASSED/FAILED/...) of the required
# tests. pytest's exit code is not used.
mkdir -p /logs/verifier
cd /app

python3 -m pytest -rA -p no:cacheprovider /tests/test_outputs.py > /logs/verifier/pytest.log 2>&1
cat /logs/verifier/pytest.log

python3 /tests/parse_log.py /logs/verifier/pytest.log /tests/required_tests.txt
