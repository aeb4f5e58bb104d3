"""Harbor's shared ("same-container") verification, reproduced faithfully as a baseline.

The tests are copied into the agent's own live container, merging into any ``/tests`` the agent
made; the agent's processes are running again; ``/logs/verifier`` is not wiped; ``chmod +x``
and the test command run through the container's own shell. Every weakness of this mode is
kept on purpose: it is what users compare fcv's split verdict against.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from isolation import archive
from isolation.agent import Sandbox
from verifier.fresh import TEST_COMMAND, Verification, collect
from verifier.verdict import PhaseRecord


def verify_same(
    box: Sandbox,
    *,
    tests_dir: str,
    user: str | None,
    environment: Mapping[str, str],
    timeout_s: float,
    threshold: float,
    shell: Sequence[str],
) -> Verification:
    """Run the tests inside the agent's container, exactly as Harbor's shared mode does.

    Raises:
        EngineError: if the engine refuses a step.
    """
    engine = box.engine
    box.thaw()
    engine.put_archive(box.container_id, "/", archive.directory_tar(tests_dir, "tests"))
    engine.exec(box.container_id, [*shell, "chmod +x /tests/test.sh"], user="root",
                timeout_s=timeout_s)
    result = engine.exec(box.container_id, [*shell, TEST_COMMAND], user=user,
                         workdir=box.workdir, environment=environment, timeout_s=timeout_s)
    phase = PhaseRecord(exit_code=result.exit_code, timed_out=result.timed_out,
                        duration_s=result.duration_s, oom_killed=result.oom_killed)
    return collect(engine, box.container_id, phase, threshold=threshold)
