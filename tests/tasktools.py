"""Small Harbor tasks written on the fly for engine tests."""

from __future__ import annotations

import os
import textwrap
from pathlib import Path

from isolation import archive
from isolation import labels as L
from isolation.engine import Engine, VolumeMount
from isolation.hardening import Hardening

BUSYBOX_DOCKERFILE = "FROM fcv/busybox:latest\nWORKDIR /app\n"
PYTHON_DOCKERFILE = "FROM fcv/python:bookworm\nWORKDIR /app\n"

PASS_IF_DONE = """\
#!/bin/sh
if [ "$(cat /app/done.txt 2>/dev/null)" = "done" ]; then echo 1 > /logs/verifier/reward.txt
else echo 0 > /logs/verifier/reward.txt; fi
"""


def make_task(root: Path, name: str = "t", *, test_sh: str = PASS_IF_DONE,
              dockerfile: str | None = BUSYBOX_DOCKERFILE, toml: str = "",
              solve_sh: str | None = "#!/bin/sh\necho done > /app/done.txt\n",
              tests_extra: dict[str, str] | None = None) -> Path:
    """Write a task directory and return its path."""
    task = root / name
    (task / "tests").mkdir(parents=True)
    (task / "environment").mkdir()
    (task / "instruction.md").write_text("Write 'done' to /app/done.txt.\n")
    (task / "task.toml").write_text(textwrap.dedent(toml) or
                                    '[verifier]\ntimeout_sec = 60\n[agent]\ntimeout_sec = 60\n')
    (task / "tests" / "test.sh").write_text(test_sh)
    os.chmod(task / "tests" / "test.sh", 0o755)
    for rel, text in (tests_extra or {}).items():
        (task / "tests" / rel).write_text(text)
    if dockerfile is not None:
        (task / "environment" / "Dockerfile").write_text(dockerfile)
    if solve_sh is not None:
        (task / "solution").mkdir()
        (task / "solution" / "solve.sh").write_text(solve_sh)
    return task


def write_agent(root: Path, body: str, name: str = "agent.sh") -> Path:
    path = root / name
    path.write_text("#!/bin/sh\n" + textwrap.dedent(body))
    path.chmod(0o755)
    return path


def put_file(engine: Engine, volume: str, trial_id: str, name: str, data: bytes, *,
             suffix: str = "") -> None:
    """Write ``name`` into ``volume`` through a never-started busybox container labelled for
    ``trial_id`` (``suffix`` keeps its name apart from the trial's own probes)."""
    c = engine.create_container("fcv/busybox:latest", ["true"], entrypoint=[],
                                name=L.resource_name(trial_id, "probe") + suffix,
                                labels=L.trial_labels(trial_id, "probe"),
                                host_config=Hardening().host_config(),
                                mounts=[VolumeMount(volume=volume, target="/w")])
    try:
        engine.put_archive(c, "/w", archive.file_tar(name, data))
    finally:
        engine.remove_container(c)
