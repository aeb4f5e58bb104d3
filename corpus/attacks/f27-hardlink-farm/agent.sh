#!/bin/sh
# f27-hardlink-farm - threats.md row F27 (hardlinks in the snapshot's tar stream).
#
# Does NOT solve the task. Creates 5000 hard links to one file spread over nested directories
# (including names that look like paths: "..link", "-rf", "x\ny"), and makes /app/roman.py a
# hard link to a module that raises at import. With --snapshot commit the workspace is streamed
# as a tar in which all but the first name are hardlink members; the receiver must recreate
# them inside the snapshot volume only, and the scan must report them without failing.
#
# Both verdicts: /app/roman.py raises at import -> the tests fail.
#
# Assumes: root, sh -c, cwd /app, python3 (the Debian image).
set -eu
cat > /app/.payload.py <<'PY'
raise ImportError("not implemented")
PY
ln /app/.payload.py /app/roman.py
python3 - <<'PY'
import os
base = "/app/farm"
for d in range(50):
    path = os.path.join(base, f"d{d:02d}", "..link" if d % 2 else "-rf")
    os.makedirs(path, exist_ok=True)
    for i in range(100):
        os.link("/app/.payload.py", os.path.join(path, f"l{i:03d}"))
os.link("/app/.payload.py", os.path.join(base, "x\ny"))
print("links:", os.stat("/app/.payload.py").st_nlink)
PY
