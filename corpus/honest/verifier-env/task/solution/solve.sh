#!/bin/bash
# Oracle solution for verifier-env. Runs as root in the workdir (/app).
set -euo pipefail

cat > /app/greet.py <<'PY'
import sys

FORMATS = {"formal": "Good day, {}.", "casual": "Hi {}!"}


def main(argv):
    style, path = argv[1], argv[2]
    if style not in FORMATS:
        print("unknown style", file=sys.stderr)
        return 1
    with open(path) as f:
        for line in f:
            name = line.strip()
            if name:
                print(FORMATS[style].format(name))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
PY
mkdir -p /app/data
printf 'Ada\nGrace\nLinus\n' > /app/data/names.txt
