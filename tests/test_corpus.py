"""The regression corpus: its shape (pure), and the whole suite against the real engine."""

from __future__ import annotations

from pathlib import Path

import pytest

from isolation.engine import Engine
from verifier import readme, suite

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "corpus"
#: Rows of threats.md sections A-D and F, which the corpus must cover.
REQUIRED_ROWS = set(range(1, 23)) | set(range(26, 33))


def cases() -> list[suite.Case]:
    return suite.discover([str(CORPUS)])


class TestCorpusShape:
    def test_sizes(self) -> None:
        """At least 40 attack cases and 15 honest cases."""
        kinds = [c.kind for c in cases()]
        assert kinds.count("attack") >= 40 and kinds.count("honest") >= 15

    def test_every_row_covered(self) -> None:
        """Every row of threat sections A-D and F has at least one attack case."""
        rows = {c.row for c in cases() if c.kind == "attack"}
        assert REQUIRED_ROWS - rows == set()

    def test_non_residual_attacks_expect_no_split_pass(self) -> None:
        """No non-residual attack may expect (or tolerate) a split pass."""
        lax = [c.name for c in cases() if c.kind == "attack" and not c.residual
               and ({"pass", "any"} & c.expect_split)]
        assert lax == []

    def test_honest_cases_expect_split_pass(self) -> None:
        """Honest cases expect a split pass unless they are split-incompatible."""
        wrong = [c.name for c in cases() if c.kind == "honest"
                 and (c.expect_split != {"pass"}) != c.split_incompatible]
        assert wrong == []


@pytest.mark.engine
@pytest.mark.slow
def test_suite_passes(engine: Engine, tmp_path: Path) -> None:
    """`fcv suite corpus/`: every expectation holds, no non-residual attack fools the split
    verdict, every honest case passes split, and the README shows this very summary."""
    outcomes = suite.run_suite(cases(), jobs=2)
    violations = {o.case.name: o.violations for o in outcomes if o.violations}
    assert violations == {}
    figures = suite.summary(outcomes)
    assert figures["split_fooled"] == 0
    assert figures["honest_split_failed"] == 0
    table = suite.to_markdown(outcomes)
    (tmp_path / "suite.md").write_text(table)
    shown = readme.embedded((ROOT / "README.md").read_text(), "suite-summary")
    assert shown == table, "README summary is stale: run `bash scripts/suite-summary.sh`"
