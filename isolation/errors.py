"""One error tree for fcv.

Every error fcv raises on purpose is an :class:`FcvError`. The CLI catches it once, prints
:meth:`FcvError.diagnostics` and exits with :attr:`FcvError.exit_code`:

* 1 when an attestation was checked and rejected (:class:`AttestationInvalid`);
* 2 for usage errors: bad arguments, a task, agent script or policy that does not exist or
  does not parse (:class:`UsageError` and its children);
* 3 when the verification itself could not be done (:class:`EngineError`, :class:`BuildError`,
  ...). A verdict is never derived from an error.
"""

from __future__ import annotations

EXIT_PASS = 0
EXIT_FAIL = 1
EXIT_USAGE = 2
EXIT_ERROR = 3


class FcvError(Exception):
    """Root of every error fcv raises on purpose."""

    exit_code = EXIT_ERROR
    #: Whether diagnostics() adds the underlying exception (off where the message has it).
    show_cause = True

    def diagnostics(self) -> str:
        """Text meant for a person: what went wrong and, where known, how to fix it."""
        text = str(self)
        cause = self.__cause__
        if self.show_cause and cause is not None and not isinstance(cause, FcvError):
            detail = str(cause).strip()
            if detail and detail not in text:
                text += f"\n  caused by: {type(cause).__name__}: {detail}"
        return text


class UsageError(FcvError):
    """Bad command-line arguments or an input file that does not exist or does not parse."""

    exit_code = EXIT_USAGE


class TaskError(UsageError):
    """A Harbor task directory is missing a file or has a malformed field.

    The message always names the file and, where there is one, the field.
    """

    def __init__(self, path: str, message: str, *, field: str | None = None) -> None:
        self.path = path
        self.field = field
        where = f"{path}: [{field}]" if field and not field.startswith("[") else path
        if field and field.startswith("["):
            where = f"{path}: {field}"
        super().__init__(f"{where}: {message}")


class EngineError(FcvError):
    """The Docker Engine refused or failed a request fcv needed."""

    show_cause = False  # the message already carries the engine's explanation


class EngineUnavailable(EngineError):
    """No Docker Engine answers."""

    def diagnostics(self) -> str:
        return (
            f"{self}\n  fix: run `bash scripts/engine.sh` (installs and starts a local engine), "
            "or point DOCKER_HOST at a running one; `fcv doctor` checks the set-up"
        )


class BuildError(FcvError):
    """A task image could not be built; the message names the failing build step."""

    def __init__(self, message: str, *, build_log: list[dict[str, object]] | None = None) -> None:
        super().__init__(message)
        self.build_log = build_log or []


class ImageMissing(FcvError):
    """A base image fcv needs is not present in the engine."""

    def diagnostics(self) -> str:
        return f"{self}\n  fix: run `fcv images bootstrap`"


class VerificationError(FcvError):
    """The verification could not be done (verdict ``error``)."""


class AgentOutOfMemory(FcvError):
    """The OOM killer acted in the agent's container: the agent did not run to its end under
    the task's own limits, so what it left is not judged (verdict ``error``, never a pass)."""


class AttestationInvalid(FcvError):
    """A signed attestation was checked and rejected (exit 1: the check ran and said no).

    ``check`` names the check that failed, one of :data:`ATTESTATION_CHECKS`; the message says
    what was expected and what was found.
    """

    exit_code = EXIT_FAIL

    def __init__(self, check: str, message: str) -> None:
        if check not in ATTESTATION_CHECKS:
            raise ValueError(f"unknown attestation check {check!r}")
        super().__init__(f"attestation rejected ({check}): {message}")
        self.check = check


#: What :class:`AttestationInvalid` can report, in the order the checks run.
ATTESTATION_CHECKS = (
    "json",            # the file is not UTF-8 JSON, or has duplicate keys / NaN
    "envelope",        # the DSSE envelope's fields are missing, extra or of the wrong type
    "payload-type",    # payloadType is not application/vnd.in-toto+json
    "encoding",        # payload or sig is not canonical base64
    "signature",       # Ed25519 over PAE(payloadType, payload) does not verify
    "keyid",           # the envelope's keyid is not the given public key's
    "canonical-form",  # bytes outside the signed content differ from what fcv writes
    "statement",       # the payload is not an in-toto Statement v1 with fcv's predicate
    "subject",         # the snapshot's root digest is not the attested one
)
