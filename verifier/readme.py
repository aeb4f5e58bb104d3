"""Keep generated tables in the docs what the tools produced.

``python -m verifier.readme FILE NAME TABLE.md`` replaces the text between
``<!-- NAME:start -->`` and ``<!-- NAME:end -->`` in FILE with the contents of TABLE.md.
"""

from __future__ import annotations

import sys


def markers(name: str) -> tuple[str, str]:
    return f"<!-- {name}:start -->", f"<!-- {name}:end -->"


def embedded(text: str, name: str = "suite-summary") -> str:
    """The block currently between the markers.

    Raises:
        ValueError: the markers are missing.
    """
    start, end = markers(name)
    try:
        _, rest = text.split(start, 1)
        body, _ = rest.split(end, 1)
    except ValueError:
        raise ValueError(f"no {start} ... {end} block") from None
    return body.strip("\n") + "\n"


def splice(text: str, table: str, name: str = "suite-summary") -> str:
    embedded(text, name)  # validates the markers
    start, end = markers(name)
    head, rest = text.split(start, 1)
    _, tail = rest.split(end, 1)
    return f"{head}{start}\n{table.strip()}\n{end}{tail}"


def main(argv: list[str]) -> int:
    path, name, table_path = argv
    with open(path, encoding="utf-8") as f:
        text = f.read()
    with open(table_path, encoding="utf-8") as f:
        table = f.read()
    with open(path, "w", encoding="utf-8") as f:
        f.write(splice(text, table, name))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
