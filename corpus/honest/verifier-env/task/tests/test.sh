#!/bin/bash
# Verifier for verifier-env: the style, the names file and the expected count come from
# [verifier].env; APP_LOCALE from [environment].env; GREETER_HOME from the image's ENV.
# pytest; 1 or 0 to reward.txt.
mkdir -p /logs/verifier
echo "GREETING_STYLE=$GREETING_STYLE NAMES_FILE=$NAMES_FILE EXPECTED_COUNT=$EXPECTED_COUNT"

python3 -m pytest -q -p no:cacheprovider -rA /tests/test_outputs.py
status=$?

if [ "$status" -eq 0 ]; then
    echo 1 > /logs/verifier/reward.txt
else
    echo 0 > /logs/verifier/reward.txt
fi
exit 0
