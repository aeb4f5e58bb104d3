"""The threat catalogue's classes (threats.md sections) and the suite report's schema: shared by
:mod:`verifier.suite` and the pure :mod:`verifier.policy_table`, which imports nothing that
talks to the engine."""

from __future__ import annotations

from collections.abc import Mapping

SUITE_SCHEMA = "fcv.suite/v1"
THREAT_CLASSES: Mapping[str, str] = {
    "A": "Tampering with tests, graders and results",
    "B": "pytest and the test process",
    "C": "Python start-up and packaging",
    "D": "Toolchain and OS",
    "E": "Leaks the split does not touch",
    "F": "Moving state between containers",
    "G": "Harness level",
}
