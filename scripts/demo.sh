#!/usr/bin/env bash
# The demo: an agent that replaces python3 with a stub that exits 0 and solves nothing.
# Harbor's same-container verdict passes it; fcv's pristine verifier fails it.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
set +e
python3 -m verifier.cli compare examples/tasks/fizzbuzz-py \
  --agent-script examples/agents/cheat-python-stub.sh --json > /tmp/fcv-demo.json
code=$?
set -e
python3 - /tmp/fcv-demo.json <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
same, split = doc["same"]["verdict"], doc["split"]["verdict"]
print(f"\nsame-container verdict: {same.upper()}   fcv split verdict: {split.upper()}")
if (same, split) != ("pass", "fail"):
    sys.exit("demo: expected same=pass and split=fail")
PY
exit "$code"
