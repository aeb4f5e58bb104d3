#!/bin/bash
# Verifier for py-pep517-app: install the project like `pip install /app` (its own PEP 517
# build backend builds the wheel; see install_project.py), then run the hidden tests against
# the installed package. Reward 1 iff the install succeeds and pytest exits 0.
mkdir -p /logs/verifier
cd /app

if ! python3 /tests/install_project.py; then
  echo "install failed"
  echo 0 > /logs/verifier/reward.txt
  exit 0
fi

cd /tests
python3 -m pytest -rA -p no:cacheprovider /tests/test_outputs.py

if [ $? -eq 0 ]; then
  echo 1 > /logs/verifier/reward.txt
else
  echo 0 > /logs/verifier/reward.txt
fi
