#!/bin/bash
# Verifier for py-exitcode-grader: a plain Python grading script, reward 1 iff it exits 0.
mkdir -p /logs/verifier

python3 /tests/grade.py

if [ $? -eq 0 ]; then
  echo 1 > /logs/verifier/reward.txt
else
  echo 0 > /logs/verifier/reward.txt
fi
