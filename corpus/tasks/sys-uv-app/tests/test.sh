#!/bin/bash
# Verifier for sys-uv-app: run the tests through uv (baked into the image), as Terminal-Bench
# tasks do, and write 1 (pass) or 0 (fail) to reward.txt.
mkdir -p /logs/verifier

uvx -p 3.11 -w pytest==7.2.1 pytest /tests/test_outputs.py -rA

if [ $? -eq 0 ]; then
    echo 1 > /logs/verifier/reward.txt
else
    echo 0 > /logs/verifier/reward.txt
fi
