#!/bin/bash
# Oracle solution for py-repo-app. Runs as root in the workdir (/app).
set -euo pipefail

cat > /app/slugkit/core.py <<'PY'
import re
import unicodedata


def slugify(text: str, sep: str = "-", max_length: int | None = None) -> str:
    """Lower-case ASCII slug of ``text``: accents are dropped, every run of characters that are
    not ASCII letters or digits becomes one ``sep``, and the slug never starts or ends with
    ``sep``. With ``max_length``, the slug is cut to at most that many characters (and again
    never ends with ``sep``)."""
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    words = re.findall(r"[a-z0-9]+", text.lower())
    slug = sep.join(words)
    if max_length is not None:
        slug = slug[:max_length]
        while sep and slug.endswith(sep):
            slug = slug[: -len(sep)]
    return slug
PY
