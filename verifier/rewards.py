"""Pure: the verdict, from what the verifier left in ``/logs/verifier``.

Harbor reads ``reward.json`` (a flat JSON object of finite numbers) first, else ``reward.txt``
(one number). This module does the same and fails closed: only a valid, finite reward at or
above the threshold is ever a ``"pass"``; a missing, empty, oversized, linked or malformed
reward file is an ``"error"``, never a ``"fail"`` and never a fall-back to the other file.

Nothing here touches Docker or the disk: :func:`read_verifier_tar` reads the tar stream the
engine's archive API returns, in streaming mode, and keeps bounded amounts of regular files.
"""

from __future__ import annotations

import io
import json
import math
import re
import tarfile
import types
from collections.abc import Iterable, Mapping
from pathlib import PurePosixPath
from typing import IO, NoReturn

import attrs

from isolation.errors import VerificationError

REWARD_JSON = "reward.json"
REWARD_TXT = "reward.txt"
TEST_STDOUT = "test-stdout.txt"
REWARD_FILES = (REWARD_JSON, REWARD_TXT)

MAX_REWARD_BYTES = 64 * 1024
MAX_LOG_BYTES = 1024 * 1024
MAX_TOTAL_BYTES = 16 * 1024 * 1024
MAX_MEMBERS = 10_000  # a real verifier leaves a handful of files; more is refused, not scanned

VERDICTS = ("pass", "fail", "error")

NO_REWARD_FILE = "no reward file: expected /logs/verifier/reward.json or /logs/verifier/reward.txt"

# ASCII digits only: float() also takes "1_0", "inf", "nan" and Arabic-Indic or full-width
# digits, none of which a verifier writing a reward means.
_DECIMAL = re.compile(rb"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
_ASCII_WHITESPACE = " \t\n\r\x0b\x0c"
_SNIPPET = 60


class RewardError(VerificationError):
    """The reward could not be read; the message is meant for a person."""


def _frozen_mapping(value: Mapping[str, object]) -> Mapping[str, object]:
    return types.MappingProxyType(dict(value))


def _frozen_names(value: Iterable[str]) -> frozenset[str]:
    return frozenset(value)


def _snippet(data: bytes) -> str:
    shown = data[:_SNIPPET]
    more = "..." if len(data) > _SNIPPET else ""
    return f"{shown!r}{more}"


@attrs.frozen(kw_only=True)
class VerifierLogs:
    """Regular files read from the verifier directory, and what was left out and why.

    A name is in at most one of ``files`` and ``skipped``.
    """

    files: Mapping[str, bytes] = attrs.field(factory=dict, converter=_frozen_mapping)
    truncated: frozenset[str] = attrs.field(factory=frozenset, converter=_frozen_names)
    skipped: Mapping[str, str] = attrs.field(factory=dict, converter=_frozen_mapping)


class _Collector:
    """Bounded bookkeeping for :func:`read_verifier_tar`."""

    def __init__(self) -> None:
        self.files: dict[str, bytes] = {}
        self.truncated: set[str] = set()
        self.skipped: dict[str, str] = {}
        self.seen: set[str] = set()
        self.total = 0

    def skip(self, name: str, reason: str) -> None:
        self.files.pop(name, None)
        self.truncated.discard(name)
        self.skipped[name] = reason

    def logs(self) -> VerifierLogs:
        return VerifierLogs(
            files=self.files, truncated=frozenset(self.truncated), skipped=self.skipped
        )


def _relative_name(raw: str, root: tuple[str, ...]) -> tuple[str, str | None]:
    """The member's name relative to root, and why it is not under root (None if it is).

    Names not under root keep a form that no name under root can take (absolute, or with a
    ``..`` component), so they never shadow a reward file. Root itself is ``"."``.
    """
    if raw.startswith("/"):
        return raw, "absolute path"
    parts = PurePosixPath(raw).parts
    if ".." in parts:
        return raw, "path contains '..'"
    if parts[: len(root)] != root:
        return "/".join(("..", *parts)), f"outside {'/'.join(root)}/"
    return "/".join(parts[len(root) :]) or ".", None


def _kind(member: tarfile.TarInfo) -> str:
    if member.issym():
        return f"symbolic link to {member.linkname}"
    if member.islnk():
        return f"hard link to {member.linkname}"
    if member.isfifo():
        return "FIFO"
    if member.ischr():
        return "character device"
    if member.isblk():
        return "block device"
    return f"unsupported tar member type {member.type!r}"


def _read_member(tar: tarfile.TarFile, member: tarfile.TarInfo, limit: int) -> bytes:
    stream = tar.extractfile(member)
    if stream is None:  # pragma: no cover - isreg() members always have a stream
        raise RewardError(f"{member.name}: tar member has no data")
    with stream:
        return stream.read(limit)


class _TailReader(io.RawIOBase):
    """Passes reads through, remembering the byte count and the last bytes read.

    tarfile ends a stream silently at a missing or garbled header; with the tail, the caller
    can check that the archive really ended with its end-of-archive block.
    """

    # tarfile reads ahead by at most one buffer (10240 bytes) past the header it parses.
    _KEEP = 4 * 10240

    def __init__(self, raw: IO[bytes] | io.RawIOBase | io.BufferedIOBase) -> None:
        super().__init__()
        self._raw = raw
        self._tail = bytearray()
        self.total = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        data = self._raw.read(len(buffer)) or b""
        n = len(data)
        buffer[:n] = data
        self.total += n
        self._tail += data
        del self._tail[: -self._KEEP]
        return n

    def block_at(self, offset: int) -> bytes:
        """The block read at ``offset``: shorter or empty if it was not (all) read or kept."""
        start = offset - (self.total - len(self._tail))
        if start < 0:
            return b""
        return bytes(self._tail[start : start + tarfile.BLOCKSIZE])


def _collect(tar: tarfile.TarFile, root: tuple[str, ...], out: _Collector) -> None:
    count = 0
    for member in tar:
        count += 1
        if count > MAX_MEMBERS:
            # Streaming mode still remembers every member it has read: stop while that is small.
            raise RewardError(f"the verifier directory holds more than {MAX_MEMBERS} entries")
        key, outside = _relative_name(member.name, root)
        if outside is not None:
            out.skip(key, outside)
            continue
        if key in out.seen:
            # Extraction would keep the last copy, a reader the first: trust neither. A
            # directory and a file of the same name count too.
            out.skip(key, "duplicate member in the archive")
            continue
        out.seen.add(key)
        if member.isdir():
            if key in REWARD_FILES:  # present "in any form": it decides, and it is no file
                out.skip(key, "directory")
            continue
        if key == ".":
            out.skip(key, f"expected a directory, found {_kind(member)}")
        elif not member.isreg():
            out.skip(key, _kind(member))
        elif key in REWARD_FILES:
            # Reward files are small and bounded, so they never count against the total cap:
            # a chatty log must not be able to push the reward out.
            if member.size > MAX_REWARD_BYTES:
                out.skip(key, f"larger than {MAX_REWARD_BYTES} bytes")
                continue
            data = _read_member(tar, member, MAX_REWARD_BYTES + 1)
            if len(data) > MAX_REWARD_BYTES:  # pragma: no cover - tarfile caps at member.size
                out.skip(key, f"larger than {MAX_REWARD_BYTES} bytes")
                continue
            out.files[key] = data
        else:
            keep = min(member.size, MAX_LOG_BYTES)
            if out.total + keep > MAX_TOTAL_BYTES:
                out.skip(key, "total size cap reached")
                continue
            out.files[key] = _read_member(tar, member, keep)
            out.total += keep
            if member.size > keep:
                out.truncated.add(key)


def read_verifier_tar(
    fileobj: IO[bytes] | io.RawIOBase | io.BufferedIOBase, *, root: str = "verifier"
) -> VerifierLogs:
    """Read the Docker archive of ``/logs/verifier`` without extracting or following anything.

    ``fileobj`` is read once, front to back: it need not be seekable, and short reads (a raw
    stream over the engine's chunks) are fine. Only regular files are kept, under names
    relative to ``root``; links, FIFOs, devices, members outside ``root`` (under a name
    starting with ``/`` or holding ``..``), reward files that are directories, oversized
    reward files, duplicates and files beyond :data:`MAX_TOTAL_BYTES` are listed in
    ``skipped`` with the reason. Other files are cut at :data:`MAX_LOG_BYTES`.

    Raises:
        RewardError: the stream is not a tar, is corrupt or truncated, or holds more than
            :data:`MAX_MEMBERS` members.
        ValueError: ``root`` is empty or not a plain relative path.
    """
    root_parts = PurePosixPath(root.strip("/")).parts
    if not root_parts or ".." in root_parts:
        raise ValueError(f"root: expected a relative directory name, got {root!r}")
    out = _Collector()
    reader = _TailReader(fileobj)
    try:
        # "r|": a plain, forward-only stream. No compression (the engine sends none, and it
        # would open the door to decompression bombs), no seeking, no extraction.
        with tarfile.open(fileobj=reader, mode="r|") as tar:
            _collect(tar, root_parts, out)
            end = tar.offset
    except (tarfile.TarError, EOFError, OSError) as e:
        raise RewardError(
            f"could not read the verifier logs archive (corrupt or truncated): {e}"
        ) from e
    if reader.block_at(end) != bytes(tarfile.BLOCKSIZE):
        # A cut or garbled stream would otherwise lose its later members unnoticed, and a
        # lost reward.json would let reward.txt decide.
        raise RewardError(
            "could not read the verifier logs archive (corrupt or truncated): "
            f"no end-of-archive block at offset {end}"
        )
    return out.logs()


def _refuse_constant(token: str) -> NoReturn:
    raise RewardError(f"reward.json: {token} is not a finite number")


def _unique_pairs(pairs: list[tuple[str, object]]) -> dict[str, object]:
    result: dict[str, object] = {}
    for key, value in pairs:
        if key in result:
            raise RewardError(f"reward.json: duplicate key {key!r}")
        result[key] = value
    return result


def _reward_value(key: str, value: object) -> float:
    if isinstance(value, bool):  # bool is an int subclass: refuse before the int check
        raise RewardError(f"reward.json: {key!r} is a boolean, expected a number")
    if isinstance(value, int):
        try:
            number = float(value)
        except OverflowError:
            raise RewardError(f"reward.json: {key!r} is too large to be a float") from None
    elif isinstance(value, float):
        number = value
    else:
        kind = "null" if value is None else type(value).__name__
        raise RewardError(f"reward.json: {key!r} is {kind}, expected a number")
    if not math.isfinite(number):
        raise RewardError(f"reward.json: {key!r} is not a finite number")
    return number


def parse_reward_json(data: bytes) -> dict[str, float]:
    """A flat JSON object of finite numbers, as floats.

    Raises:
        RewardError: empty, not UTF-8, not JSON, not a non-empty object, a duplicate key, or
            a value that is not a finite number (booleans, null, strings, arrays, objects,
            NaN/Infinity and numbers that overflow are all refused).
    """
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise RewardError(f"reward.json is not valid UTF-8: {e}") from e
    if not text.strip(_ASCII_WHITESPACE):
        raise RewardError("reward.json is empty")
    try:
        value = json.loads(text, parse_constant=_refuse_constant, object_pairs_hook=_unique_pairs)
    except RecursionError:
        raise RewardError("reward.json is nested too deeply") from None
    except ValueError as e:  # JSONDecodeError, and int digit limits
        raise RewardError(f"reward.json is not valid JSON: {e}") from e
    if not isinstance(value, dict):
        kind = "null" if value is None else type(value).__name__
        raise RewardError(f"reward.json: expected a JSON object, got {kind}")
    if not value:
        raise RewardError("reward.json is an empty object")
    return {key: _reward_value(key, item) for key, item in value.items()}


def parse_reward_txt(data: bytes) -> dict[str, float]:
    """One finite decimal number, surrounded by nothing but ASCII whitespace.

    Returns ``{"reward": value}``.

    Raises:
        RewardError: empty, not a plain decimal number, or not finite.
    """
    stripped = data.strip()  # bytes.strip() strips ASCII whitespace only
    if not stripped:
        raise RewardError("reward.txt is empty")
    if _DECIMAL.fullmatch(stripped) is None:
        raise RewardError(f"reward.txt is not a decimal number: {_snippet(stripped)}")
    value = float(stripped.decode("ascii"))
    if not math.isfinite(value):
        raise RewardError(f"reward.txt is not a finite number: {_snippet(stripped)}")
    return {"reward": value}


def select_primary(rewards: Mapping[str, float]) -> float:
    """The reward that decides: ``rewards["reward"]``, else the only value.

    Raises:
        RewardError: no ``"reward"`` key and not exactly one key.
    """
    if "reward" in rewards:
        return rewards["reward"]
    if len(rewards) == 1:
        return next(iter(rewards.values()))
    if not rewards:
        raise RewardError("no rewards")
    keys = ", ".join(repr(k) for k in sorted(rewards))
    raise RewardError(
        f"cannot choose the primary reward: no 'reward' key among {len(rewards)} keys ({keys})"
    )


def _check_judgement(instance: Judgement) -> None:
    if instance.verdict == "error":
        if instance.error is None or instance.reward is not None or instance.rewards is not None:
            raise ValueError(
                "Judgement: verdict 'error' needs an error and no reward, "
                f"got error={instance.error!r}, reward={instance.reward!r}"
            )
    elif instance.error is not None or instance.reward is None or instance.rewards is None:
        raise ValueError(
            f"Judgement: verdict {instance.verdict!r} needs a reward and no error, "
            f"got error={instance.error!r}, reward={instance.reward!r}"
        )
    elif not math.isfinite(instance.reward):
        raise ValueError(f"Judgement: reward must be finite, got {instance.reward!r}")


def _optional_frozen(value: Mapping[str, float] | None) -> Mapping[str, float] | None:
    return None if value is None else types.MappingProxyType(dict(value))


@attrs.frozen(kw_only=True)
class Judgement:
    """The verdict on one verification and the reward it came from."""

    verdict: str = attrs.field(validator=attrs.validators.in_(VERDICTS))
    reward: float | None
    rewards: Mapping[str, float] | None = attrs.field(converter=_optional_frozen)
    error: str | None
    source: str | None = attrs.field(
        validator=attrs.validators.optional(attrs.validators.in_(REWARD_FILES))
    )

    def __attrs_post_init__(self) -> None:
        # A "pass" without a finite reward, or an "error" that carries one, cannot be built.
        _check_judgement(self)


def error_judgement(reason: str, *, source: str | None = None) -> Judgement:
    """A verdict of ``"error"`` with ``reason``; ``source`` names the reward file, if any."""
    return Judgement(verdict="error", reward=None, rewards=None, error=reason, source=source)


def judge(logs: VerifierLogs, *, threshold: float = 1.0) -> Judgement:
    """The verdict: ``"pass"`` iff the primary reward is ``>= threshold``.

    ``reward.json`` decides whenever it exists in any form, even a bad one; ``reward.txt`` is
    read only when it does not. Every problem with the deciding file is an ``"error"``.

    Raises:
        ValueError: ``threshold`` is not finite.
        TypeError: ``threshold`` is not a number (a bool is not a number here).
    """
    if isinstance(threshold, bool) or not isinstance(threshold, (int, float)):
        raise TypeError(f"threshold: expected a finite number, got {threshold!r}")
    if not math.isfinite(threshold):
        raise ValueError(f"threshold: expected a finite number, got {threshold!r}")

    present = [n for n in REWARD_FILES if n in logs.files or n in logs.skipped]
    if not present:
        return error_judgement(NO_REWARD_FILE)
    source = present[0]
    if source in logs.skipped:
        return error_judgement(f"{source} was not read: {logs.skipped[source]}", source=source)
    if source in logs.truncated:
        return error_judgement(f"{source} was truncated", source=source)
    parse = parse_reward_json if source == REWARD_JSON else parse_reward_txt
    try:
        rewards = parse(logs.files[source])
        reward = select_primary(rewards)
    except RewardError as e:
        return error_judgement(str(e), source=source)
    verdict = "pass" if reward >= threshold else "fail"
    return Judgement(verdict=verdict, reward=reward, rewards=rewards, error=None, source=source)
