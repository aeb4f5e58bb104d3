"""Make the agent's module importable by name. `python3 -m pytest` run from /app would put /app
on sys.path implicitly, but not with PYTHONSAFEPATH=1 (or -P), so say it explicitly."""

import sys

if "/app" not in sys.path:
    sys.path.insert(0, "/app")
