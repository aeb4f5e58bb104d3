#!/bin/bash
# Oracle solution for unicode-names. Runs as root in the workdir (/app).
set -euo pipefail

python3 - <<'PY'
import os

names = [
    b"caf\xc3\xa9 menu.txt",
    b"cafe\xcc\x81 menu.txt",
    "日本語 ファイル.txt".encode(),
    "party 🎉.txt".encode(),
    b" leading and trailing space ",
    b"tab\there.txt",
    b"quote's \"double\" [brackets] (parens) & $dollar.txt",
    b"latin1-\xe9.txt",
]
inbox = b"/app/inbox"
os.makedirs(inbox, exist_ok=True)
for name in names:
    with open(os.path.join(inbox, name), "wb") as f:
        f.write(name + b"\n")
folder = os.path.join(inbox, "Mes documents/Résumé (final)".encode())
os.makedirs(folder, exist_ok=True)
with open(os.path.join(folder, b"notes.md"), "wb") as f:
    f.write(b"ok\n")
PY
