#!/bin/bash
# Verifier for json-report-py. Runs as [verifier].user = "nobody" with REPORT_MODE=strict from
# [verifier].env. Writes a flat JSON object to /logs/verifier/reward.json.
#
# A failing reward is written first, so a crash of the checker still leaves reward 0. Any
# reward.json already there is removed first: it may belong to another user (root), which
# "nobody" could not overwrite in place but can unlink in the world-writable directory.
mkdir -p /logs/verifier 2>/dev/null
rm -f /logs/verifier/reward.json /logs/verifier/reward.json.tmp
echo '{"reward": 0.0, "checks_passed": 0, "checks_total": 3}' > /logs/verifier/reward.json

echo "running as: $(id)"
python3 -I /tests/check_report.py
echo "checker exit status: $?"
cat /logs/verifier/reward.json
exit 0
