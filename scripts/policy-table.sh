#!/usr/bin/env bash
# Run the whole corpus (attacks and honest cases) under each policy and put the table of which
# attack classes each policy stops into SECURITY.md (between the policy-table markers).
# Reports land in reports/policy-<name>.json. POLICY_TABLE_REUSE=1 skips the suites and only
# rebuilds the table from the reports already there. JOBS (default 2) cases run at a time.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p reports
policies=(default strict harbor-compat)
if [ "${POLICY_TABLE_REUSE:-0}" != 1 ]; then
  # What was measured: the commit (marked -dirty when the tree had local changes) and the date
  # the suites started, kept beside the reports so a reused run is labelled the same.
  { echo "commit=$(git describe --always --dirty)"; echo "date=$(date -u +%Y-%m-%d)"; } \
    >reports/policy-table.meta
  for p in "${policies[@]}"; do
    echo "policy-table: suite under policy $p" >&2
    # A suite that breaks expectations exits 1; its figures are still what we measured.
    python3 -m verifier.cli suite corpus/attacks corpus/honest --policy "$p" \
      --jobs "${JOBS:-2}" --json "reports/policy-$p.json" \
      >"reports/policy-$p.log" 2>&1 || echo "policy-table: suite $p exited $?" >&2
  done
fi
commit=$(sed -n 's/^commit=//p' reports/policy-table.meta)
date=$(sed -n 's/^date=//p' reports/policy-table.meta)
args=()
for p in "${policies[@]}"; do args+=("$p=reports/policy-$p.json"); done
python3 -m verifier.policy_table \
  --date "$date" \
  --machine "$(nproc)-core shared machine, $(docker version --format 'Docker {{.Server.Version}}' 2>/dev/null || echo 'Docker ?'), $(runsc --version 2>/dev/null | head -n1 || echo 'runsc ?')" \
  --commit "$commit" \
  "${args[@]}" >reports/policy-table.md
python3 -m verifier.readme SECURITY.md policy-table reports/policy-table.md
cat reports/policy-table.md
