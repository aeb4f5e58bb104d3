#!/bin/bash
# Verifier for py-pytest-app, in the usual Terminal-Bench 2 shape: run the hidden pytest file
# from the workspace directory and write 1 (pass) or 0 (fail) to reward.txt by pytest's exit
# code. The cache provider is off because the workspace may be read-only.
mkdir -p /logs/verifier
cd /app

python3 -m pytest -rA -p no:cacheprovider /tests/test_outputs.py

if [ $? -eq 0 ]; then
  echo 1 > /logs/verifier/reward.txt
else
  echo 0 > /logs/verifier/reward.txt
fi
