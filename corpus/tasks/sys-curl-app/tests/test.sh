#!/bin/bash
# Verifier for sys-curl-app, in the Terminal-Bench 2 style: install uv with curl, put it on
# PATH, run the tests with uvx, write 1 (pass) or 0 (fail) to reward.txt.
mkdir -p /logs/verifier

curl -LsSf https://astral.sh/uv/0.7.13/install.sh | sh
source "$HOME/.local/bin/env"

uvx -p 3.11 -w pytest==7.2.1 pytest /tests/test_outputs.py -rA

if [ $? -eq 0 ]; then
    echo 1 > /logs/verifier/reward.txt
else
    echo 0 > /logs/verifier/reward.txt
fi
