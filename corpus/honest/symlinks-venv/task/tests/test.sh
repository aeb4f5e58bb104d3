#!/bin/bash
# Verifier for symlinks-venv: pytest over the symlinked layout; 1 or 0 to reward.txt.
# pytest's cache is disabled because the workspace may be read-only.
mkdir -p /logs/verifier

python3 -m pytest -q -p no:cacheprovider -rA /tests/test_outputs.py
status=$?

if [ "$status" -eq 0 ]; then
    echo 1 > /logs/verifier/reward.txt
else
    echo 0 > /logs/verifier/reward.txt
fi
exit 0
