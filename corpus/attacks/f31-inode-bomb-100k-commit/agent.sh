#!/bin/sh
# f31-inode-bomb-100k-commit - threats.md row F31 (resource exhaustion: inodes), with the
# commit snapshot, which streams every file through the engine's archive API into a new volume.
#
# Does NOT solve the task. Creates 100 000 small files (one byte each) in 1000 directories.
#
# Both verdicts: no answer -> fail (an error, e.g. a timeout of the copy, would be acceptable
# for the split verdict; a pass never).
#
# Assumes: sh -c, cwd /app, python3 (the Debian image).
set -eu
python3 - <<'PY'
import os
for d in range(1000):
    path = f"/app/bomb/{d:03d}"
    os.makedirs(path)
    for i in range(100):
        with open(f"{path}/{i:03d}", "wb") as f:
            f.write(b"x")
print("files:", sum(len(f) for _, _, f in os.walk("/app/bomb")))
PY
