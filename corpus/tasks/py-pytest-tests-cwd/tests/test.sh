#!/bin/bash
# Verifier for py-pytest-tests-cwd: the same hidden tests as py-pytest-app, but pytest runs
# from the tests directory with its rootdir pinned there, so neither the cwd entry on sys.path
# nor pytest's rootdir points into the workspace. Reward 1 iff pytest exits 0.
mkdir -p /logs/verifier
cd /tests

python3 -m pytest --rootdir=/tests -rA -p no:cacheprovider test_outputs.py

if [ $? -eq 0 ]; then
  echo 1 > /logs/verifier/reward.txt
else
  echo 0 > /logs/verifier/reward.txt
fi
