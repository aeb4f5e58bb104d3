#!/bin/bash
# Verifier for py-profile-app. Like many Terminal-Bench 2 test.sh files, it first loads the
# toolchain environment (the login profile and the tool env file, cf. `source
# $HOME/.local/bin/env` after installing uv), then runs pytest; reward 1 iff pytest exits 0.
source /etc/profile
source "$HOME/.local/bin/env"

mkdir -p /logs/verifier
cd /app

python3 -m pytest -rA -p no:cacheprovider /tests/test_outputs.py

if [ $? -eq 0 ]; then
  echo 1 > /logs/verifier/reward.txt
else
  echo 0 > /logs/verifier/reward.txt
fi
