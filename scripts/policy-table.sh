#!/usr/bin/env bash
# Run the whole corpus (attacks and honest cases) under each policy and put the table of which
# attack classes each policy stops into SECURITY.md (between the policy-table markers).
#
# The suites run from a clean export of HEAD (git archive), not from the working tree, so the
# figures belong to exactly one commit even while files are being edited; commit first to
# measure a change. Reports land in reports/policy-<name>.json (+ .log). POLICY_TABLE_REUSE=1
# skips the suites and only rebuilds the table (and the README's suite summary) from the
# reports already there. JOBS (default 2)
# cases run at a time; the policies run one after the other. Takes 10-15 minutes per policy on
# a 2-core machine.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
mkdir -p reports
policies=(default strict harbor-compat)
if [ "${POLICY_TABLE_REUSE:-0}" != 1 ]; then
  src=$(mktemp -d)
  trap 'rm -rf "$src"' EXIT
  git archive HEAD | tar -x -C "$src"
  # What was measured, kept beside the reports so a reused run is labelled the same.
  { echo "commit=$(git rev-parse --short HEAD)"; echo "date=$(date -u +%Y-%m-%d)"; } \
    >reports/policy-table.meta
  for p in "${policies[@]}"; do
    echo "policy-table: suite under policy $p" >&2
    # Each case is checked against its [policy.NAME] table where it has one; a suite that
    # breaks an expectation exits 1, and its figures are still what we measured.
    (cd "$src" && python3 -m verifier.cli suite corpus/attacks corpus/honest --policy "$p" \
      --jobs "${JOBS:-2}" --json "$root/reports/policy-$p.json" \
      --markdown "$root/reports/policy-$p.md") \
      >"reports/policy-$p.log" 2>&1 || echo "policy-table: suite $p exited $?" >&2
  done
fi
# The default run is also the README's suite summary (what scripts/suite-summary.sh makes).
python3 -m verifier.readme README.md suite-summary reports/policy-default.md
commit=$(sed -n 's/^commit=//p' reports/policy-table.meta)
date=$(sed -n 's/^date=//p' reports/policy-table.meta)
args=()
for p in "${policies[@]}"; do args+=("$p=reports/policy-$p.json"); done
machine="a $(nproc)-core shared machine"
machine+=", Docker $(docker version --format '{{.Server.Version}}' 2>/dev/null || echo '?')"
machine+=", runsc $(runsc --version 2>/dev/null | sed -n 's/^runsc version //p' || echo '?')"
python3 -m verifier.policy_table --date "$date" --machine "$machine" --commit "$commit" \
  "${args[@]}" >reports/policy-table.md
python3 -m verifier.readme SECURITY.md policy-table reports/policy-table.md
cat reports/policy-table.md
