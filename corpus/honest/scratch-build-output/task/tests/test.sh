#!/bin/sh
# Verifier for scratch-build-output (busybox only). Removes any dist/ the agent left, runs the
# agent's build script (which writes into the workspace), then compares the outputs.
# Writes 1 (pass) or 0 (fail) to reward.txt.
mkdir -p /logs/verifier

fail() {
    echo "FAIL: $*"
    echo 0 > /logs/verifier/reward.txt
    exit 0
}

rm -rf /workspace/dist || fail "cannot remove /workspace/dist (is the workspace writable?)"
cd /
sh /workspace/build.sh || fail "build.sh exited with status $?"

cmp /workspace/dist/bundle.txt /tests/expected-bundle.txt || fail "bundle.txt differs"
cmp /workspace/dist/index.txt /tests/expected-index.txt || fail "index.txt differs"

# Run it a second time: the build must be repeatable over its own output.
sh /workspace/build.sh || fail "second build exited with status $?"
cmp /workspace/dist/bundle.txt /tests/expected-bundle.txt || fail "bundle.txt differs after rebuild"

echo "PASS: build output matches"
echo 1 > /logs/verifier/reward.txt
exit 0
