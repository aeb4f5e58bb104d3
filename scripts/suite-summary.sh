#!/usr/bin/env bash
# Run the regression corpus and put its summary table into the README (between the
# suite-summary markers). Reports land in reports/.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p reports
set +e
python3 -m verifier.cli suite corpus --jobs "${JOBS:-2}" --json reports/suite.json \
  --junit reports/suite.xml --markdown reports/suite.md
code=$?
set -e
python3 -m verifier.readme README.md suite-summary reports/suite.md
exit "$code"
