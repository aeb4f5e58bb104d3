#!/bin/bash
# Oracle solution for symlinks-venv. Runs as root in the workdir (/app).
set -euo pipefail

python3 -m venv --without-pip /app/venv

site=$(/app/venv/bin/python3 -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
mkdir -p "$site/greet"
cat > "$site/greet/__init__.py" <<'PY'
def hello(name):
    return f"hello, {name}!"
PY

cat > /app/venv/bin/greet <<'PY'
#!/app/venv/bin/python3
import sys

import greet

print(greet.hello(sys.argv[1]))
PY
chmod 0755 /app/venv/bin/greet

mkdir -p /app/releases/v1 /app/releases/v2
echo 1.0.0 > /app/releases/v1/VERSION
echo 2.0.0 > /app/releases/v2/VERSION
ln -s releases/v2 /app/current
ln -s /app/releases/v2 /app/latest
ln -s /app/venv/bin/python3 /app/releases/v2/python
