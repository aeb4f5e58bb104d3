#!/bin/sh
# Verifier for sys-scratch-app (busybox). Needs a writable workspace (fcv --workspace scratch):
# the agent's allowlist is normalised into /workspace/build/ (kept as a build artefact), then
# compared with the expected list. Writes 1 or 0 to reward.txt.
mkdir -p /logs/verifier /workspace/build
if [ ! -f /workspace/allowlist.txt ]; then
    echo "FAIL: /workspace/allowlist.txt missing"
    echo 0 > /logs/verifier/reward.txt
    exit 0
fi
tr -d '\r' < /workspace/allowlist.txt | sed 's/[[:space:]]*$//' > /workspace/build/allowlist.normalized
if cmp -s /workspace/build/allowlist.normalized /tests/expected.txt; then
    echo "PASS"
    echo 1 > /logs/verifier/reward.txt
else
    echo "FAIL:"; diff /tests/expected.txt /workspace/build/allowlist.normalized | head -n 20
    echo 0 > /logs/verifier/reward.txt
fi
exit 0
