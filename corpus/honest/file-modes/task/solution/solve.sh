#!/bin/bash
# Oracle solution for file-modes. Runs as root in the workdir (/app).
set -euo pipefail

mkdir -p /app/bin /app/etc /app/spool

cat > /app/bin/hello <<'SH'
#!/bin/sh
echo "hello from $1"
SH

cat > /app/bin/sum <<'PY'
#!/usr/bin/env python3
import sys

print(sum(int(a) for a in sys.argv[1:]))
PY

cat > /app/bin/rotate-logs <<'SH'
#!/bin/sh
echo rotated
SH

printf 'listen = 127.0.0.1:8080\nworkers = 4\n' > /app/etc/app.conf
echo "A tool installed with exact permissions." > /app/README

chmod 0755 /app/bin /app/bin/hello /app/bin/sum
chmod 0700 /app/bin/rotate-logs
chmod 0750 /app/etc
chmod 0640 /app/etc/app.conf
chmod 1777 /app/spool
chmod 0444 /app/README
