#!/bin/bash
# Terminal-Bench 2 style verifier. TB2's test.sh installs curl and uv and runs
# `uvx -w pytest pytest /tests/test_outputs.py -rA`; with no network the same runner is baked
# into the image as the venv /opt/testenv.
source /opt/testenv/bin/activate

pytest /tests/test_outputs.py -rA

if [ $? -eq 0 ]; then
  echo 1 > /logs/verifier/reward.txt
else
  echo 0 > /logs/verifier/reward.txt
fi
