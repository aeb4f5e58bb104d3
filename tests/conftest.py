"""Shared fixtures. Engine tests run against the REAL Docker Engine; nothing mocks it.

Without an engine, engine tests are skipped locally but FAIL under CI (``CI`` or
``FCV_REQUIRE_ENGINE`` set), so a green CI run always means they ran.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from isolation.engine import Engine
from isolation.errors import FcvError
from verifier import images


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


@pytest.fixture(autouse=True)
def _no_leaks(request: pytest.FixtureRequest) -> Iterator[None]:
    """After every engine test, no fcv.trial-labelled resource it created may remain.

    Resources that existed before the test (another process's) are not this test's to judge.
    """
    if "engine" not in request.fixturenames:
        yield
        return
    eng: Engine = request.getfixturevalue("engine")
    before = {k: set(v) for k, v in eng.list_labelled().items()}
    images_before = {i["Id"] for i in eng.api.images(all=True)}
    yield
    leaked = {k: sorted(set(v) - before[k]) for k, v in eng.list_labelled().items()}
    # Unlabelled images too: a build's intermediate images must not pile up either.
    base = {i["Id"] for i in eng.api.images(filters={"label": ["fcv.base"]})}
    stray = ({i["Id"] for i in eng.api.images(all=True)} - images_before - base
             - set(leaked["images"]))
    if stray:
        pytest.fail(f"test left unlabelled images behind: {sorted(stray)}")
    if any(leaked.values()):
        for cid in leaked["containers"]:
            eng.remove_container(cid)
        for vol in leaked["volumes"]:
            eng.remove_volume(vol)
        for image in leaked["images"]:
            eng.remove_image(image)
        pytest.fail(f"test leaked fcv.trial resources: {leaked}")
