#!/bin/bash
# Oracle solution for sys-bashenv-app. Runs as root in the workdir (/app).
set -euo pipefail
cat > /app/wrap.py <<'PY'
def wrap(text, width):
    if width < 1:
        raise ValueError("width must be positive")
    lines, current = [], ""
    for word in text.split():
        if not current:
            current = word
        elif len(current) + 1 + len(word) <= width:
            current += " " + word
        else:
            lines.append(current)
            current = word
    if current:
        lines.append(current)
    return lines
PY
