#!/bin/bash
# Oracle solution for leftover-process. Runs as root in the workdir (/app). Like many agents, it
# previews the result with a throwaway server and forgets to stop it.
set -euo pipefail

mkdir -p /app/site
python3 - <<'PY'
import html
import json

pages = json.load(open("/app/pages.json"))
lines = ["<ul>"]
lines += [f'<li><a href="{p["slug"]}.html">{html.escape(p["title"], quote=False)}</a></li>'
          for p in pages]
lines.append("</ul>")
open("/app/site/index.html", "w").write("\n".join(lines) + "\n")
PY

setsid python3 -m http.server 8000 --bind 127.0.0.1 --directory /app/site \
    > /tmp/preview.log 2>&1 < /dev/null &
sleep 0.5
python3 -c 'import urllib.request; print(urllib.request.urlopen("http://127.0.0.1:8000/").read().decode())'
