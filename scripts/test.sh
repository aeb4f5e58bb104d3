#!/usr/bin/env bash
# The test command: set up (package, engine, base images), then the whole suite against the
# real engine. Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
export FCV_REQUIRE_ENGINE=1
python3 -m pytest "$@"
