"""Shared fixtures. Engine tests run against the REAL Docker Engine; nothing mocks it.

Without an engine, engine tests are skipped locally but FAIL under CI (``CI`` or
``FCV_REQUIRE_ENGINE`` set), so a green CI run always means they ran.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from isolation import labels
from isolation.engine import Engine
from isolation.errors import FcvError
from verifier import images

#: Every trial id minted in this test process: leak checks judge only these, so that other
#: fcv processes sharing the engine (a developer's own runs) neither fail nor lose trials.
SESSION_TRIALS: set[str] = set()
_mint = labels.new_trial_id


def _recording_trial_id() -> str:
    trial_id = _mint()
    SESSION_TRIALS.add(trial_id)
    return trial_id


labels.new_trial_id = _recording_trial_id  # type: ignore[assignment]


def _engine_required() -> bool:
    return bool(os.environ.get("CI") or os.environ.get("FCV_REQUIRE_ENGINE"))


@pytest.fixture(scope="session")
def engine() -> Iterator[Engine]:
    """A connection to the real engine, with both base images present."""
    try:
        eng = Engine.connect()
    except FcvError as e:
        if _engine_required():
            pytest.fail(f"engine tests required but no engine: {e.diagnostics()}")
        pytest.skip(f"no Docker Engine: {e}")
    missing = [s.name for s in images.status(eng) if s.image_id is None]
    if missing:
        message = f"base images missing: {missing}; run `fcv images bootstrap`"
        if _engine_required():
            pytest.fail(message)
        pytest.skip(message)
    yield eng
    eng.close()


def session_resources(eng: Engine) -> dict[str, list[str]]:
    """Labelled resources of trials minted by this test process."""
    found: dict[str, list[str]] = {"containers": [], "volumes": [], "images": []}
    for trial_id in sorted(SESSION_TRIALS):
        for kind, ids in eng.list_labelled(trial_id).items():
            found[kind].extend(ids)
    return found


@pytest.fixture(autouse=True)
def _no_leaks(request: pytest.FixtureRequest) -> Iterator[None]:
    """After every engine test, no resource of a trial it started may remain, and no
    unlabelled image may have appeared (a build's intermediate images)."""
    if "engine" not in request.fixturenames:
        yield
        return
    eng: Engine = request.getfixturevalue("engine")
    images_before = {i["Id"] for i in eng.api.images(all=True)}
    yield
    leaked = session_resources(eng)
    if any(leaked.values()):
        for trial_id in SESSION_TRIALS:
            eng.remove_labelled(trial_id)
        pytest.fail(f"test leaked fcv.trial resources: {leaked}")
    if not _engine_required():
        # The engine-wide image comparison below only means something when nothing else
        # builds on this engine meanwhile: CI (alone on its machine) runs it, a developer's
        # shared engine skips it.
        return
    labelled = {i["Id"] for i in eng.api.images(all=True, filters={"label": ["fcv.trial"]})}
    # The base images themselves (by tag): images built FROM them inherit their fcv.base label.
    base = {i for i in (eng.image_id(ref) for ref in images.BASE_IMAGES) if i}
    stray = {i["Id"] for i in eng.api.images(all=True)} - images_before - base - labelled
    if stray:
        pytest.fail(f"test left unlabelled images behind: {sorted(stray)}")
