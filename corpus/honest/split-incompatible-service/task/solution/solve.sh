#!/bin/bash
# Oracle solution for split-incompatible-service. Runs as root in the workdir (/app).
set -euo pipefail

mkdir -p /app/site /run/statusd
echo '<h1>status: ok</h1>' > /app/site/index.html
echo 'statusd 1.4' > /app/site/version.txt

cat > /app/statusd.py <<'PY'
import functools
import http.server
import os
import threading
import time


def heartbeat():
    while True:
        tmp = "/run/statusd/heartbeat.tmp"
        with open(tmp, "w") as f:
            f.write(f"{int(time.time())}\n")
        os.replace(tmp, "/run/statusd/heartbeat")
        time.sleep(0.5)


threading.Thread(target=heartbeat, daemon=True).start()
handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory="/app/site")
http.server.ThreadingHTTPServer(("127.0.0.1", 8765), handler).serve_forever()
PY

# Detach completely: new session, no inherited stdio, so the agent's exec can end.
setsid python3 -B /app/statusd.py > /run/statusd/statusd.log 2>&1 < /dev/null &

for _ in $(seq 50); do
    if python3 -c 'import urllib.request; urllib.request.urlopen("http://127.0.0.1:8765/", timeout=1)' 2>/dev/null \
            && [ -s /run/statusd/heartbeat ]; then
        echo "statusd is up"
        exit 0
    fi
    sleep 0.1
done
echo "statusd did not start" >&2
exit 1
