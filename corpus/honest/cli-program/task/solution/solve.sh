#!/bin/bash
# Oracle solution for cli-program. Runs as root in the workdir (/app).
set -euo pipefail

mkdir -p /app/bin
cat > /app/bin/colstat <<'PY'
#!/usr/bin/env python3
import argparse
import csv
import sys


def main(argv=None):
    p = argparse.ArgumentParser(prog="colstat")
    p.add_argument("--column")
    p.add_argument("--precision", type=int, default=2)
    p.add_argument("file")
    args = p.parse_args(argv)
    f = sys.stdin if args.file == "-" else open(args.file, newline="")
    with f:
        reader = csv.reader(f)
        header = next(reader, [])
        column = args.column if args.column is not None else (header[0] if header else "")
        if column not in header:
            print(f"colstat: no column {column}", file=sys.stderr)
            return 2
        index = header.index(column)
        values = []
        for line, row in enumerate(reader, start=2):
            cell = row[index].strip() if index < len(row) else ""
            if not cell:
                continue
            try:
                values.append(float(cell))
            except ValueError:
                print(f"colstat: bad value at line {line}", file=sys.stderr)
                return 3
    if not values:
        print("count=0")
        return 0
    n = args.precision
    print(f"count={len(values)} min={min(values):.{n}f} max={max(values):.{n}f} "
          f"mean={sum(values) / len(values):.{n}f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
PY
chmod 0755 /app/bin/colstat
