"""Keep the README's suite summary what the suite produced: ``python -m verifier.readme
README.md TABLE.md`` replaces the text between the suite-summary markers."""

from __future__ import annotations

import sys

START = "<!-- suite-summary:start -->"
END = "<!-- suite-summary:end -->"


def embedded(readme: str) -> str:
    """The table currently between the markers.

    Raises:
        ValueError: the markers are missing.
    """
    try:
        _, rest = readme.split(START, 1)
        body, _ = rest.split(END, 1)
    except ValueError:
        raise ValueError(f"README has no {START} ... {END} block") from None
    return body.strip("\n") + "\n"


def splice(readme: str, table: str) -> str:
    embedded(readme)  # validates the markers
    head, rest = readme.split(START, 1)
    _, tail = rest.split(END, 1)
    return f"{head}{START}\n{table.strip()}\n{END}{tail}"


def main(argv: list[str]) -> int:
    readme_path, table_path = argv
    with open(readme_path, encoding="utf-8") as f:
        readme = f.read()
    with open(table_path, encoding="utf-8") as f:
        table = f.read()
    with open(readme_path, "w", encoding="utf-8") as f:
        f.write(splice(readme, table))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
