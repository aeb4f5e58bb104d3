#!/bin/bash
# Verifier for py-pythonpath-app: the tests import the agent's module by name, so the
# workspace goes on PYTHONPATH (a common Terminal-Bench 2 pattern). Reward 1 iff pytest exits 0.
mkdir -p /logs/verifier
cd /app
export PYTHONPATH=/app

python3 -m pytest -rA -p no:cacheprovider /tests/test_outputs.py

if [ $? -eq 0 ]; then
  echo 1 > /logs/verifier/reward.txt
else
  echo 0 > /logs/verifier/reward.txt
fi
