#!/bin/bash
# Verifier for py-build-script: build the project with its own build script, out of tree (the
# checkout may be read-only), then test the built package. Reward 1 iff the build succeeds and
# pytest exits 0.
mkdir -p /logs/verifier
cd /app

if ! python3 build.py --out /tmp/build; then
  echo "build failed"
  echo 0 > /logs/verifier/reward.txt
  exit 0
fi

export PYTHONPATH=/tmp/build
python3 -m pytest -rA -p no:cacheprovider /tests/test_outputs.py

if [ $? -eq 0 ]; then
  echo 1 > /logs/verifier/reward.txt
else
  echo 0 > /logs/verifier/reward.txt
fi
