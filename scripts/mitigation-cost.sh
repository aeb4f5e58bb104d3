#!/usr/bin/env bash
# Measure what each opt-in verifier mitigation costs on the honest corpus: run the honest cases
# without any, then with each one, and put the pass rates into SECURITY.md.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p reports
for flag in none --safe-path --pin-pytest --no-plugin-autoload; do
  args=()
  [ "$flag" = none ] || args=("$flag")
  python3 -m verifier.cli suite corpus/honest --jobs "${JOBS:-2}" "${args[@]}" \
    --json "reports/honest${flag}.json" >/dev/null 2>&1 || true
done
python3 - <<'PY'
import json
rows = ["| verifier setting | honest cases passing split | broken cases |", "|---|---:|---|"]
for flag in ("none", "--safe-path", "--pin-pytest", "--no-plugin-autoload"):
    doc = json.load(open(f"reports/honest{flag}.json"))
    cases = [r for r in doc["results"] if "split-incompatible" not in r["case"]
             and r["expect_split"] == ["pass"]]
    passed = [r for r in cases if r["split"] == "pass"]
    broken = ", ".join(sorted(r["case"].split("/")[-1] for r in cases if r["split"] != "pass"))
    name = "defaults only" if flag == "none" else f"`{flag}`"
    rows.append(f"| {name} | {len(passed)}/{len(cases)} | {broken or '-'} |")
open("reports/mitigation-cost.md", "w").write("\n".join(rows) + "\n")
PY
python3 -m verifier.readme SECURITY.md mitigation-cost reports/mitigation-cost.md
cat reports/mitigation-cost.md
