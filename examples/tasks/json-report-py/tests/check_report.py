"""Checks for json-report-py. Runs the agent's program in a subprocess and compares its JSON
with an independent reference; writes /logs/verifier/reward.json atomically."""

import csv
import json
import os
import subprocess
import sys

PROGRAM = "/srv/work/report.py"
PRISTINE_DEFAULT = "/tests/orders.csv"  # same bytes as the image's /srv/work/data/orders.csv
HIDDEN = "/tests/hidden_orders.csv"
REWARD = "/logs/verifier/reward.json"
KEYS = {"orders", "units", "revenue", "revenue_by_region", "top_product"}


def reference(path):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    units_by_product = {}
    revenue_by_region = {}
    revenue = 0.0
    units = 0
    for r in rows:
        q = int(r["quantity"])
        amount = q * float(r["unit_price"])
        units += q
        revenue += amount
        revenue_by_region[r["region"]] = revenue_by_region.get(r["region"], 0.0) + amount
        units_by_product[r["product"]] = units_by_product.get(r["product"], 0) + q
    top = sorted(units_by_product.items(), key=lambda kv: (-kv[1], kv[0]))[0][0]
    return {
        "orders": len(rows),
        "units": units,
        "revenue": round(revenue, 2),
        "revenue_by_region": {k: round(v, 2) for k, v in revenue_by_region.items()},
        "top_product": top,
    }


def close(a, b):
    return (isinstance(a, (int, float)) and not isinstance(a, bool)
            and abs(float(a) - float(b)) < 0.006)


def run_program(args):
    proc = subprocess.run(["python3", PROGRAM, *args], capture_output=True, text=True,
                          timeout=30)
    if proc.returncode != 0:
        raise AssertionError(f"exit status {proc.returncode}; stderr: {proc.stderr[-500:]}")
    return json.loads(proc.stdout)


def compare(got, want, strict):
    assert isinstance(got, dict), f"output is not a JSON object: {got!r}"
    if strict:
        assert set(got) == KEYS, f"keys {sorted(got)} != {sorted(KEYS)}"
    for key in ("orders", "units"):
        assert type(got[key]) is int and got[key] == want[key], f"{key}: {got[key]!r} != {want[key]!r}"
    assert close(got["revenue"], want["revenue"]), f"revenue: {got['revenue']!r} != {want['revenue']!r}"
    regions = got["revenue_by_region"]
    assert isinstance(regions, dict) and set(regions) == set(want["revenue_by_region"]), \
        f"regions: {regions!r}"
    for region, value in want["revenue_by_region"].items():
        assert close(regions[region], value), f"revenue_by_region[{region}]: {regions[region]!r} != {value!r}"
    assert got["top_product"] == want["top_product"], \
        f"top_product: {got['top_product']!r} != {want['top_product']!r}"


def main():
    mode = os.environ.get("REPORT_MODE")
    strict = mode == "strict"
    checks = [
        ("default input", lambda: compare(run_program([]), reference(PRISTINE_DEFAULT), strict)),
        ("hidden input", lambda: compare(run_program([HIDDEN]), reference(HIDDEN), strict)),
    ]
    passed = 0
    for name, check in checks:
        try:
            check()
        except Exception as e:  # any failure of the agent's program is a failed check
            print(f"FAIL {name}: {type(e).__name__}: {e}")
        else:
            print(f"PASS {name}")
            passed += 1
    if strict:
        print("PASS verifier env: REPORT_MODE=strict")
        passed += 1
    else:
        print(f"FAIL verifier env: REPORT_MODE={mode!r}, expected 'strict' from [verifier].env")

    total = len(checks) + 1
    result = {"reward": 1.0 if passed == total else 0.0, "checks_passed": passed,
              "checks_total": total}
    tmp = REWARD + ".tmp"
    with open(tmp, "w") as f:
        json.dump(result, f)
        f.write("\n")
    os.replace(tmp, REWARD)
    return 0 if passed == total else 1


if __name__ == "__main__":
    sys.exit(main())
