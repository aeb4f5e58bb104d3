"""SEAMS between attestations and work on other branches; the lead wires them at merge.

* :func:`snapshot_root_digest` - the trial's snapshot root digest (branch ``provenance``:
  ``Manifest.root_digest``, expected as ``TrialResult.snapshot_digest``);
* :func:`digest_of_export` - the root digest recomputed from a ``fcv snapshot export`` file
  (``isolation.manifest.digest_of_export``);
* :func:`policy_identity` - the policy's name and digest (``verifier/policy.py``, expected as
  ``TrialResult.policy_name`` / ``TrialResult.policy_digest``).

Each reads the merged interface when it is there and otherwise falls back as documented, so
this module is the only glue to change.
"""

from __future__ import annotations

import hashlib
import importlib
import json
from collections.abc import Callable

from isolation.errors import UsageError
from verifier import findings as F
from verifier.verdict import TrialResult


def snapshot_root_digest(result: TrialResult) -> str | None:
    """The root digest ("sha256:<hex>") of the snapshot the split verdict was computed on, or
    None when this build records none (before the ``provenance`` merge).

    SEAM(provenance): at merge this becomes ``return result.snapshot_digest``.
    """
    value = getattr(result, "snapshot_digest", None)
    return value if isinstance(value, str) else None


def digest_of_export(path: str) -> str:
    """The root digest ("sha256:<hex>") recomputed from a snapshot export file.

    SEAM(provenance): delegates to ``isolation.manifest.digest_of_export(path)``.

    Raises:
        UsageError: this build has no ``isolation.manifest`` (before the merge); whatever the
            manifest module raises for a missing or corrupt file passes through.
    """
    try:
        module = importlib.import_module("isolation.manifest")
    except ModuleNotFoundError as e:
        raise UsageError("--snapshot: this build cannot read snapshot exports "
                         "(isolation.manifest is missing)") from e
    function: Callable[[str], object] | None = getattr(module, "digest_of_export", None)
    if function is None:
        raise UsageError("--snapshot: isolation.manifest has no digest_of_export")
    return str(function(path))


#: The name under which the built-in policy is attested until policies/*.toml exist.
BUILTIN_POLICY = "builtin"


def policy_identity(result: TrialResult, policy: F.Policy) -> tuple[str, str]:
    """(policy name, "sha256:<hex>") of the policy that judged ``result``.

    SEAM(policy): at merge this becomes ``return result.policy_name, result.policy_digest``.
    Until then (STAND-IN): the built-in policy, named ``builtin``, whose digest is the SHA-256
    of ``{"fail_on":[...sorted codes...]}`` as compact JSON.
    """
    name, digest = getattr(result, "policy_name", None), getattr(result, "policy_digest", None)
    if isinstance(name, str) and isinstance(digest, str):
        return name, digest
    canonical = json.dumps({"fail_on": sorted(policy.fail_on)}, separators=(",", ":"))
    return BUILTIN_POLICY, "sha256:" + hashlib.sha256(canonical.encode()).hexdigest()
