"""``fcv doctor``: is this machine ready to verify? Each missing piece names its fix."""

from __future__ import annotations

from collections.abc import Callable

import attrs

from isolation.engine import Engine
from isolation.errors import FcvError
from verifier import images


@attrs.frozen(kw_only=True)
class Check:
    name: str
    ok: bool
    detail: str
    fix: str | None = None

    def to_json(self) -> dict[str, object]:
        return {"name": self.name, "ok": self.ok, "detail": self.detail, "fix": self.fix}


def run_checks(connect: Callable[[], Engine] = Engine.connect) -> list[Check]:
    """Check the engine, its runtimes and security options, and the base images."""
    try:
        engine = connect()
    except FcvError as e:
        return [Check(name="engine", ok=False, detail=str(e),
                      fix="bash scripts/engine.sh  (or set DOCKER_HOST to a running engine)")]
    try:
        version = engine.version()
        info = engine.info()
        checks = [Check(name="engine", ok=True,
                        detail=f"Docker Engine {version.get('Version')} "
                               f"(API {version.get('ApiVersion')}), "
                               f"storage {info.get('Driver')}, cgroup v{info.get('CgroupVersion')}")]
        runtimes = sorted((info.get("Runtimes") or {}).keys())
        checks.append(Check(
            name="runsc", ok="runsc" in runtimes,
            detail=f"runtimes: {', '.join(runtimes) or 'none'}",
            fix=None if "runsc" in runtimes else
            "bash scripts/engine.sh on a machine without a running engine registers gVisor; "
            "on your own engine add {\"runtimes\": {\"runsc\": {\"path\": \"/usr/bin/runsc\", "
            "\"runtimeArgs\": [\"--network=none\"]}}} to daemon.json"))
        security = [str(s) for s in info.get("SecurityOptions") or []]
        seccomp = any("name=seccomp" in s and "profile=default" in s for s in security)
        checks.append(Check(
            name="seccomp", ok=seccomp, detail=", ".join(security) or "none",
            fix=None if seccomp else "run an engine with seccomp and its default profile "
                                     "(no --seccomp-profile=unconfined)"))
        for status in images.status(engine):
            present = status.image_id is not None
            checks.append(Check(
                name=status.name, ok=present,
                detail=status.image_id[:19] if status.image_id else "missing",
                fix=None if present else "fcv images bootstrap"))
        return checks
    finally:
        engine.close()
