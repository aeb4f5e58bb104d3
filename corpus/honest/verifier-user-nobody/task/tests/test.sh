#!/bin/bash
# Verifier for verifier-user-nobody: runs as [verifier].user = nobody. pytest; 1 or 0 to
# reward.txt (in the world-writable /logs/verifier).
echo "running as: $(id)"

python3 -m pytest -q -p no:cacheprovider -rA /tests/test_outputs.py
status=$?

if [ "$status" -eq 0 ]; then
    echo 1 > /logs/verifier/reward.txt
else
    echo 0 > /logs/verifier/reward.txt
fi
exit 0
