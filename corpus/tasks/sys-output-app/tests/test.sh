#!/bin/bash
# Verifier for sys-output-app: pytest compares /app/summary.tsv with the expected file shipped
# in tests/; reward.txt 1 or 0.
mkdir -p /logs/verifier

python3 -m pytest -q -p no:cacheprovider -rA /tests/test_outputs.py
if [ $? -eq 0 ]; then
    echo 1 > /logs/verifier/reward.txt
else
    echo 0 > /logs/verifier/reward.txt
fi
