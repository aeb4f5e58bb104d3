"""Where an attestation's inputs come from: the trial's snapshot manifest, a snapshot file,
and the policy the verdict was reached under. Kept apart from :mod:`verifier.attest` (pure) so
that module does not depend on the engine-facing snapshot code."""

from __future__ import annotations

from isolation import snapshot_file as SF
from isolation.errors import UsageError
from verifier.verdict import TrialResult


def snapshot_root_digest(result: TrialResult) -> str | None:
    """The root digest ("sha256:<hex>") of the snapshot the split verdict was computed on, or
    None when its manifest could not be computed (the verdict is then ``error`` anyway)."""
    return result.snapshot.root_digest if result.snapshot is not None else None


def digest_of_export(path: str) -> str:
    """The root digest recomputed from a ``fcv snapshot export`` file, after validating every
    member against its manifest (no engine needed).

    Raises:
        ArchiveRefused: the file is not a valid snapshot file; names the member and reason.
    """
    return SF.verify_file(path).root_digest


def policy_identity(result: TrialResult) -> tuple[str, str]:
    """(policy name, "sha256:<hex>") of the policy that judged ``result``.

    Raises:
        UsageError: the result records no policy (built without ``TrialOptions.from_policy``).
    """
    policy = result.policy or {}
    name, digest = policy.get("name"), policy.get("digest")
    if not isinstance(name, str) or not isinstance(digest, str):
        raise UsageError("the verdict records no policy, so it cannot be attested")
    return name, digest
