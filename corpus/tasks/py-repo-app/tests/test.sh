#!/bin/bash
# Verifier for py-repo-app, SWE-bench style: the repository's own tests must be unchanged
# (checksums) and pass together with the hidden tests. pytest runs from the repository and
# collects both /tests/test_outputs.py and the repository's tests/ directory; the reward is 1
# when pytest exits 0.
mkdir -p /logs/verifier
cd /app

if ! sha256sum --check --strict /tests/repo_tests.sha256; then
  echo "the repository's tests were modified"
  echo 0 > /logs/verifier/reward.txt
  exit 0
fi

python3 -m pytest -rA -p no:cacheprovider /tests/test_outputs.py tests

if [ $? -eq 0 ]; then
  echo 1 > /logs/verifier/reward.txt
else
  echo 0 > /logs/verifier/reward.txt
fi
