#!/bin/bash
# Oracle solution for py-profile-app. Runs as root in the workdir (/app).
set -euo pipefail

cat > /app/anagrams.py <<'PY'
def group_anagrams(words):
    groups = {}
    for word in words:
        groups.setdefault("".join(sorted(word)), set()).add(word)
    return sorted(sorted(group) for group in groups.values())
PY
