#!/bin/bash
# Verifier for sys-grader-app: pytest with the image's tbgrade helpers; reward.txt 1 or 0.
mkdir -p /logs/verifier

python3 -m pytest -q -p no:cacheprovider -rA /tests/test_outputs.py
if [ $? -eq 0 ]; then
    echo 1 > /logs/verifier/reward.txt
else
    echo 0 > /logs/verifier/reward.txt
fi
