"""Unit tests for verifier.readme (generated blocks in the docs)."""

from __future__ import annotations

import pytest

from verifier import readme


class TestSplice:
    def test_round_trip(self) -> None:
        """A spliced table is what embedded() reads back; text around it is kept."""
        doc = "head\n<!-- t:start -->\nold\n<!-- t:end -->\ntail\n"
        new = readme.splice(doc, "| a |\n", "t")
        assert readme.embedded(new, "t") == "| a |\n"
        assert new.startswith("head\n") and new.endswith("tail\n")

    def test_missing_markers(self) -> None:
        """Without markers, both functions refuse rather than guess."""
        with pytest.raises(ValueError, match="no <!-- t:start -->"):
            readme.splice("nothing here", "x", "t")
