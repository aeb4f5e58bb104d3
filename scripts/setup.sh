#!/usr/bin/env bash
# Everything fcv needs on a fresh machine: the package, a running engine, the base images.
# Idempotent and quick when all is there already.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m pip install -q --disable-pip-version-check --root-user-action=ignore -e '.[test]'
bash scripts/engine.sh
python3 -m verifier.cli images bootstrap
