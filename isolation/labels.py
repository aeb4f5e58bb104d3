"""Labels for every resource fcv creates, from one pure function.

Cleanup finds resources by these labels (never by a remembered list alone), so a crashed run's
leftovers can be swept by ``fcv gc``.
"""

from __future__ import annotations

import os
import secrets
import socket

NAMESPACE = "fcv."
TRIAL = "fcv.trial"
ROLE = "fcv.role"
BASE = "fcv.base"
OWNER = "fcv.owner"

ROLES = frozenset(
    {"task-image", "agent", "workspace", "snapshot", "commit", "verifier", "verifier-logs",
     "scratch", "scratch-upper", "tools", "tests", "carry", "receiver", "probe"}
)


def new_trial_id() -> str:
    """A short random trial id, safe in container and volume names."""
    return secrets.token_hex(6)


def trial_labels(trial_id: str, role: str) -> dict[str, str]:
    """Labels for a resource that belongs to one trial.

    Raises:
        ValueError: if ``role`` is not one of :data:`ROLES` or ``trial_id`` is empty.
    """
    if not trial_id:
        raise ValueError("trial_id must not be empty")
    if role not in ROLES:
        raise ValueError(f"unknown resource role {role!r}; expected one of {sorted(ROLES)}")
    return {TRIAL: trial_id, ROLE: role, OWNER: owner()}


def owner() -> str:
    """``host:pid`` of this fcv process, so ``fcv gc`` can spare trials still in progress."""
    return f"{socket.gethostname()}:{os.getpid()}"


def owner_alive(value: str | None) -> bool:
    """Whether the fcv process named by an owner label still runs (on this host). Resources
    of other hosts, of unknown owners, and of this very process count as not alive."""
    host, _, pid_text = (value or "").rpartition(":")
    if host != socket.gethostname() or not pid_text.isdigit():
        return False
    pid = int(pid_text)
    if pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def resource_name(trial_id: str, role: str) -> str:
    """A readable engine name for a trial's resource, e.g. ``fcv-3fa2c1d0e9b4-agent``."""
    trial_labels(trial_id, role)
    return f"fcv-{trial_id}-{role}"


def trial_filter(trial_id: str | None = None) -> dict[str, list[str]]:
    """An engine ``filters`` mapping selecting one trial's resources, or all fcv trials'."""
    return {"label": [TRIAL if trial_id is None else f"{TRIAL}={trial_id}"]}
