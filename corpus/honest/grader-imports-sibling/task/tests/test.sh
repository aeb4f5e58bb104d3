#!/bin/bash
# The grader is a plain script that imports a helper module sitting next to it in /tests.
if python3 /tests/grade.py; then echo 1 > /logs/verifier/reward.txt; else echo 0 > /logs/verifier/reward.txt; fi
