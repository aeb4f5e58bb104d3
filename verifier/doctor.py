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


#: gVisor's arguments the strict policy relies on: no host network (required here) and the
#: engine's seccomp profile loaded inside the sandbox as well.
RUNSC_ARGS = ("--network=none", "--oci-seccomp")


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
        registered = info.get("Runtimes") or {}
        runtimes = sorted(registered)
        args = list((registered.get("runsc") or {}).get("runtimeArgs") or [])
        missing = [a for a in RUNSC_ARGS if a not in args]
        checks.append(Check(
            name="runsc", ok="runsc" in runtimes and not missing,
            detail=f"runtimes: {', '.join(runtimes) or 'none'}"
                   + (f"; runsc args {args}" if "runsc" in runtimes else ""),
            fix=None if "runsc" in runtimes and not missing else
            "bash scripts/engine.sh registers gVisor (and reloads a daemon it started); on your "
            "own engine add {\"runtimes\": {\"runsc\": {\"path\": \"/usr/bin/runsc\", "
            "\"runtimeArgs\": [\"--network=none\", \"--oci-seccomp\"]}}} to daemon.json "
            "and reload it (SIGHUP); the strict policy needs both"))
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
