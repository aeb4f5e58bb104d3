#!/bin/bash
# Oracle solution for py-stdout-grader. Runs as root in the workdir (/app).
set -euo pipefail

cat > /app/textstats.py <<'PY'
import re
from collections import Counter

_WORD = re.compile(r"[A-Za-z]+")


def _words(text):
    return [w.lower() for w in _WORD.findall(text)]


def word_count(text):
    return len(_words(text))


def top_words(text, k):
    counts = Counter(_words(text))
    return sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:k]
PY
