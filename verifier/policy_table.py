"""Pure: which attack classes each isolation policy stops, from ``fcv suite --json`` documents.

``python3 -m verifier.policy_table [--date D --machine M --commit C] NAME=SUITE.json ...`` prints
a Markdown block (``scripts/policy-table.sh`` runs the corpus under each policy and splices the
block into SECURITY.md). One suite document per policy, all over the same corpus.

The attack table has one row per threat-catalogue row (threats.md: A1 ... F32) and, per policy,
``fooled/cases``: how many of that row's attack cases obtained a ``pass`` from the split
verdict (an attacking agent never does the task, so any pass is the attack working), followed by
``(N error)`` when some split verdicts were ``error``. The same-container column is the
baseline: Harbor's shared mode run on the same frozen agent, taken from the baseline policy's
suite (``harbor-compat`` when present: Harbor's own container defaults). The honest table says
how many honest cases each policy's split verdict passes and names every case that did not pass
under some policy, with its verdict and reason.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Mapping, Sequence
from typing import Any

from verifier.catalogue import SUITE_SCHEMA as SCHEMA
from verifier.catalogue import THREAT_CLASSES

#: Short names of the threat catalogue's rows (threats.md), for the table's first column.
ROWS: Mapping[int, str] = {
    1: "tests or reference files edited",
    2: "grading code monkey-patched",
    3: "baseline in the workspace rewritten",
    4: "reward file written in advance",
    5: "background process rewrites reward or tests",
    6: "conftest.py hooks",
    7: "pytest.ini / pyproject / setup.cfg / tox.ini",
    8: "pytest plugin autoload",
    9: "sys.exit / os._exit in the submission",
    10: "always-equal objects",
    11: "import-time hooks in the submission",
    12: "forged PASSED output",
    13: "forged `__pycache__` bytecode",
    14: "stack introspection",
    15: "patched timers",
    16: "sitecustomize / usercustomize / .pth",
    17: "persisted environment (profiles, env files)",
    18: "module shadowing via sys.path[0] / cwd",
    19: "install-step hijack",
    20: "binaries on PATH replaced",
    21: "ld.so.preload / LD_PRELOAD",
    22: "setuid binary",
    23: "answers in the task image",
    24: "future git history",
    25: "answers looked up online",
    26: "workspace symlinks to private or host paths",
    27: "hardlinks",
    28: "FIFOs, sockets, device nodes",
    29: "tar path traversal",
    30: "copy races (docker cp)",
    31: "resource exhaustion",
    32: "container escape",
    33: "cheating by the submitter",
    34: "LLM judge manipulation",
}
#: The policy whose same-container verdicts are the baseline, when it was measured.
BASELINE = "harbor-compat"
#: A cell of the attack table: fooled/cases, optionally "(N error)".
CELL = re.compile(r"^(\d+)/(\d+)(?: \((\d+) errors?\))?$")
_REASON_CHARS = 110


class TableError(ValueError):
    """Suite documents that cannot be tabulated together (named in the message)."""


def _results(name: str, doc: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    if doc.get("schema") != SCHEMA:
        raise TableError(f"{name}: expected a {SCHEMA} document, got schema "
                         f"{doc.get('schema')!r}")
    results = doc.get("results")
    if not isinstance(results, list) or not results:
        raise TableError(f"{name}: no results")
    for r in results:
        recorded = _recorded_policy(r)
        if recorded is not None and recorded != name:
            raise TableError(f"{name}: case {r.get('case')} was run under policy {recorded!r}")
    return results


def _recorded_policy(result: Mapping[str, Any]) -> str | None:
    comparison = result.get("comparison") or {}
    split = comparison.get("split") or {}
    policy = split.get("policy") or {}
    name = policy.get("name")
    return name if isinstance(name, str) else None


def _cell(group: Sequence[Mapping[str, Any]], mode: str) -> str:
    fooled = sum(r[mode] == "pass" for r in group)
    errors = sum(r[mode] == "error" for r in group)
    cell = f"{fooled}/{len(group)}"
    if errors:
        cell += f" ({errors} error{'s' if errors > 1 else ''})"
    return cell


def _row_label(threat: str | None, row: int | None) -> str:
    if row is None:
        return f"{threat or '?'} (no row)"
    return f"{threat or '?'}{row} {ROWS.get(row, f'row {row}')}"


def _reason(result: Mapping[str, Any]) -> str:
    """Why a verdict is not ``pass``: the error, the finding that failed it, or the reward."""
    split = (result.get("comparison") or {}).get("split") or {}
    text = result.get("error") or split.get("error")
    if not text:
        failing = [f.get("code") for f in split.get("findings") or () if f.get("fails_verdict")]
        if failing:
            text = "failed by finding " + ", ".join(sorted(set(map(str, failing))))
        elif split.get("reward") is not None:
            text = f"reward {split['reward']:g}"
        else:
            text = "no reason recorded"
    text = " ".join(str(text).split()).replace("|", "\\|")
    return text if len(text) <= _REASON_CHARS else text[:_REASON_CHARS - 1] + "…"


def render(docs: Sequence[tuple[str, Mapping[str, Any]]], *, date: str | None = None,
           machine: str | None = None, commit: str | None = None) -> str:
    """The Markdown block for SECURITY.md; deterministic (no timings).

    ``docs`` is ``(policy name, fcv.suite/v1 document)`` in column order.

    Raises:
        TableError: no documents, a document that is not a suite report, policies named twice,
            or documents over different cases.
    """
    if not docs:
        raise TableError("no suite documents")
    names = [n for n, _ in docs]
    if len(set(names)) != len(names):
        raise TableError(f"a policy is named twice: {names}")
    runs = {n: {r["case"]: r for r in _results(n, d)} for n, d in docs}
    cases = sorted(runs[names[0]])
    for n in names[1:]:
        if sorted(runs[n]) != cases:
            diff = sorted(set(cases) ^ set(runs[n]))
            raise TableError(f"{n}: not the same cases as {names[0]} (differs in {diff[:5]})")
    base = BASELINE if BASELINE in runs else names[0]
    first = runs[names[0]]

    def order(case: str) -> tuple[str, int]:
        return (first[case].get("threat") or "?", first[case].get("row") or 0)

    attacks = sorted((c for c in cases if first[c]["kind"] == "attack"), key=order)
    groups: dict[tuple[str, int], list[str]] = {}
    for c in attacks:
        groups.setdefault(order(c), []).append(c)

    header = (["attack class (threats.md row)", "cases", "residual",
               f"same-container ({base})"] + [f"split: {n}" for n in names])
    lines = ["| " + " | ".join(header) + " |",
             "|---|---:|---:|---:|" + "---:|" * len(names)]
    letter = None
    for (threat, row), group in groups.items():
        if threat != letter:
            letter = threat
            title = THREAT_CLASSES.get(threat, "")
            lines.append(f"| **{threat}. {title}** |" + " |" * (len(header) - 1))
        residual = sum(bool(first[c].get("residual")) for c in group)
        cells = [_cell([runs[base][c] for c in group], "same")]
        cells += [_cell([runs[n][c] for c in group], "split") for n in names]
        lines.append(f"| {_row_label(threat, row or None)} | {len(group)} | {residual or '-'} | "
                     + " | ".join(cells) + " |")
    total = [_cell([runs[base][c] for c in attacks], "same")]
    total += [_cell([runs[n][c] for c in attacks], "split") for n in names]
    residual_all = sum(bool(first[c].get("residual")) for c in attacks)
    lines.append(f"| **all attacks** | **{len(attacks)}** | **{residual_all}** | "
                 + " | ".join(f"**{t}**" for t in total) + " |")
    lines.append("")
    lines.append("Same-container verdicts fooled under each policy (Harbor's shared mode on that "
                 "policy's agent container): " + ", ".join(
                     f"{n} {_cell([runs[n][c] for c in attacks], 'same')}" for n in names) + ".")

    honest = [c for c in cases if first[c]["kind"] == "honest"]
    if honest:
        compatible = [c for c in honest if first[c].get("expect_split") == ["pass"]]
        incompatible = [c for c in honest if c not in compatible]
        lines += ["", "| honest cases | " + " | ".join(f"split: {n}" for n in names) + " |",
                  "|---|" + "---:|" * len(names)]
        lines.append(f"| passed (of {len(compatible)} that should pass) | " + " | ".join(
            f"{sum(runs[n][c]['split'] == 'pass' for c in compatible)}/{len(compatible)}"
            for n in names) + " |")
        if incompatible:
            lines.append(f"| split-incompatible, not passed (of {len(incompatible)}) | "
                         + " | ".join(
                             f"{sum(runs[n][c]['split'] != 'pass' for c in incompatible)}"
                             f"/{len(incompatible)}" for n in names) + " |")
        broken = [(n, c) for c in compatible for n in names if runs[n][c]["split"] != "pass"]
        if broken:
            lines += ["", "Honest cases that did not pass the split verdict:", ""]
            for n, c in broken:
                r = runs[n][c]
                lines.append(f"- {n}: `{c.split('/')[-1]}` {r['split']}: {_reason(r)}")

    attack_errors = [(n, c) for n in names for c in attacks if runs[n][c]["split"] == "error"]
    if attack_errors:
        lines += ["", "Attack cases whose split verdict was `error` (never a pass):", ""]
        for n, c in attack_errors:
            lines.append(f"- {n}: `{c.split('/')[-1]}`: {_reason(runs[n][c])}")

    note = [f"Measured {date}" if date else "Measured",
            f"on {machine}" if machine else None,
            f"fcv commit {commit}" if commit else None]
    lines += ["", ", ".join(p for p in note if p) + "; produced by "
              "`bash scripts/policy-table.sh` from `fcv suite corpus/attacks corpus/honest "
              "--policy NAME --json` for each policy."]
    return "\n".join(lines) + "\n"


def _tables(block: str) -> list[list[str]]:
    tables: list[list[str]] = []
    previous = False
    for line in block.splitlines():
        is_row = line.startswith("|")
        if is_row and not previous:
            tables.append([])
        if is_row:
            tables[-1].append(line)
        previous = is_row
    return tables


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def parse(block: str) -> dict[str, Any]:
    """Read back a :func:`render` block (for checks on SECURITY.md).

    Returns ``{"policies": [...], "rows": {label: {column: (fooled, cases, errors)}},
    "honest": {label: {policy: (passed, cases)}}}``.

    Raises:
        TableError: the attack table is missing or a table is malformed.
    """
    tables = _tables(block)
    if not tables or len(tables[0]) < 3:
        raise TableError("no attack table")
    attack, *rest = tables
    header = _cells(attack[0])
    if header[:3] != ["attack class (threats.md row)", "cases", "residual"] \
            or len(header) < 5 or not header[3].startswith("same-container"):
        raise TableError(f"unexpected attack table header: {header}")
    if not all(h.startswith("split: ") for h in header[4:]):
        raise TableError(f"not one split column per policy: {header}")
    policies = [h.removeprefix("split: ") for h in header[4:]]
    if len(set(policies)) != len(policies):
        raise TableError(f"a policy has two columns: {header}")
    rows: dict[str, dict[str, tuple[int, int, int]]] = {}
    for line in attack[2:]:
        cells = _cells(line)
        if len(cells) != len(header):
            raise TableError(f"row has {len(cells)} cells, header {len(header)}: {line}")
        if cells[0].startswith("**") and not any(cells[1:]):
            continue  # a threat-class heading
        values = [c.strip("*") for c in cells]
        if not values[1].isdigit():
            raise TableError(f"cases is not a number: {line}")
        if not (values[2] == "-" or values[2].isdigit()):
            raise TableError(f"residual is not a number: {line}")
        parsed: dict[str, tuple[int, int, int]] = {}
        for column, value in zip(header[3:], values[3:]):
            m = CELL.match(value)
            if not m:
                raise TableError(f"cell {value!r} in column {column!r} is not N/M: {line}")
            fooled, total, errors = int(m[1]), int(m[2]), int(m[3] or 0)
            if total != int(values[1]) or fooled + errors > total:
                raise TableError(f"cell {value!r} does not fit {values[1]} cases: {line}")
            parsed[column] = (fooled, total, errors)
        rows[values[0]] = parsed
    if not rows:
        raise TableError("the attack table has no rows")
    honest: dict[str, dict[str, tuple[int, int]]] = {}
    for table in rest:
        head = _cells(table[0])
        if head[0] != "honest cases":
            continue
        if head[1:] != [f"split: {n}" for n in policies]:
            raise TableError(f"honest table columns {head[1:]} are not the policies {policies}")
        for line in table[2:]:
            cells = _cells(line)
            if len(cells) != len(head):
                raise TableError(f"row has {len(cells)} cells, header {len(head)}: {line}")
            counts = {}
            for n, value in zip(policies, cells[1:]):
                m = re.fullmatch(r"(\d+)/(\d+)", value)
                if not m or int(m[1]) > int(m[2]):
                    raise TableError(f"honest cell {value!r} is not N/M: {line}")
                counts[n] = (int(m[1]), int(m[2]))
            honest[cells[0]] = counts
    return {"policies": policies, "rows": rows, "honest": honest}


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python3 -m verifier.policy_table",
                                description="Markdown table of the attack classes each policy "
                                            "stops, from fcv suite --json documents.")
    p.add_argument("--date")
    p.add_argument("--machine")
    p.add_argument("--commit")
    p.add_argument("runs", nargs="+", metavar="POLICY=SUITE.json")
    args = p.parse_args(argv)
    docs = []
    for item in args.runs:
        name, sep, path = item.partition("=")
        if not sep or not name or not path:
            p.error(f"expected POLICY=SUITE.json, got {item!r}")
        try:
            with open(path, encoding="utf-8") as f:
                docs.append((name, json.load(f)))
        except (OSError, json.JSONDecodeError) as e:
            print(f"{path}: {e}", file=sys.stderr)
            return 2
    try:
        sys.stdout.write(render(docs, date=args.date, machine=args.machine,
                                commit=args.commit))
    except TableError as e:
        print(f"policy-table: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
