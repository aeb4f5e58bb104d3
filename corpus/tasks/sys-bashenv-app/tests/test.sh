#!/bin/bash
# Verifier for sys-bashenv-app: pytest (bash sources $BASH_ENV first); reward.txt 1 or 0.
mkdir -p /logs/verifier
echo "APP_HOME=${APP_HOME:-unset}"

pytest -q -p no:cacheprovider -rA /tests/test_outputs.py
if [ $? -eq 0 ]; then
    echo 1 > /logs/verifier/reward.txt
else
    echo 0 > /logs/verifier/reward.txt
fi
