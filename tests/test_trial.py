"""Unit tests for pure parts of verifier.trial (no engine: the engine calls are stand-ins)."""

from __future__ import annotations

import pytest

from isolation import manifest as M
from isolation import snapshot as snapshots
from isolation.errors import EngineError
from verifier import trial as T

TREE = M.Manifest.from_entries([M.Entry(path=".", type="dir", mode=0o755, uid=0, gid=0)])
CARRIED = [snapshots.Carried(path="/srv/a", volume="va"),
           snapshots.Carried(path="/srv/b", volume="vb")]


def stand_in(failing: str, error: Exception):  # type: ignore[no-untyped-def]
    def of_volume(engine: object, volume: str, **_: object) -> M.Manifest:
        if volume == failing:
            raise error
        return TREE
    return of_volume


class TestCarriedManifests:
    def test_all_trees(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """Every carried tree gets its manifest, in order, with its path and volume."""
        monkeypatch.setattr(T.manifest, "of_volume", stand_in("none", RuntimeError()))
        got, error, limit = T.carried_manifests(object(), CARRIED, trial_id="t",  # type: ignore[arg-type]
                                                max_files=10)
        assert [(c.path, c.volume) for c in got] == [("/srv/a", "va"), ("/srv/b", "vb")]
        assert error is None and limit == []
        record = T.record(TREE, got)
        assert [c.path for c in record.carried] == ["/srv/a", "/srv/b"]

    @pytest.mark.parametrize(("error", "limited"), [
        (M.TooManyEntries("more than 10 entries"), True),
        (EngineError("engine refused"), False),
    ])
    def test_failure_records_no_partial_list(self, monkeypatch: pytest.MonkeyPatch,
                                             error: Exception, limited: bool) -> None:
        """When a later tree fails, no manifest is kept at all: a verdict never records or
        signs a partial list of carried trees. Too many entries is a limit finding, anything
        else the reason the verdict is an error."""
        monkeypatch.setattr(T.manifest, "of_volume", stand_in("vb", error))
        got, reason, limit = T.carried_manifests(object(), CARRIED, trial_id="t",  # type: ignore[arg-type]
                                                 max_files=10)
        assert got == []
        if limited:
            assert reason is None and [f.code for f in limit] == ["file-limit-exceeded"]
            assert limit[0].path == "/srv/b"
        else:
            assert limit == [] and reason is not None and "/srv/b" in reason
