#!/bin/bash
# Oracle solution for json-report-py. Runs as root in the workdir (/srv/work).
set -euo pipefail

cat > /srv/work/report.py <<'PY'
import csv
import json
import sys


def main(argv):
    path = argv[1] if len(argv) > 1 else "/srv/work/data/orders.csv"
    orders = units = 0
    revenue = 0.0
    by_region = {}
    by_product = {}
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            quantity = int(row["quantity"])
            amount = quantity * float(row["unit_price"])
            orders += 1
            units += quantity
            revenue += amount
            by_region[row["region"]] = by_region.get(row["region"], 0.0) + amount
            by_product[row["product"]] = by_product.get(row["product"], 0) + quantity
    top = min(by_product, key=lambda p: (-by_product[p], p)) if by_product else None
    print(json.dumps({
        "orders": orders,
        "units": units,
        "revenue": round(revenue, 2),
        "revenue_by_region": {k: round(v, 2) for k, v in by_region.items()},
        "top_product": top,
    }))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
PY
chmod 0644 /srv/work/report.py
