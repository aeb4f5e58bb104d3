"""Tests for :mod:`verifier.rewards`: reading /logs/verifier and the fail-closed verdict."""

from __future__ import annotations

import io
import json
import math
import re
import tarfile
import tracemalloc

import attrs
import pytest
from hypothesis import HealthCheck, event, find, given, settings, target
from hypothesis import strategies as st

from isolation.errors import FcvError
from verifier import rewards as R
from verifier.rewards import (
    Judgement,
    RewardError,
    VerifierLogs,
    error_judgement,
    judge,
    parse_reward_json,
    parse_reward_txt,
    read_verifier_tar,
    select_primary,
)

try:
    from tests import strategies as S
except ImportError:  # tests/ is not a package: pytest put tests/ itself on sys.path
    import strategies as S  # type: ignore[no-redef,import-not-found]

# The oracle, written independently of the module under test.
STRICT_DECIMAL = re.compile(rb"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
ASCII_WS = b" \t\n\r\x0b\x0c"


def txt(data: bytes) -> VerifierLogs:
    return VerifierLogs(files={"reward.txt": data})


def rjson(data: bytes) -> VerifierLogs:
    return VerifierLogs(files={"reward.json": data})


def read(data: bytes) -> VerifierLogs:
    return read_verifier_tar(io.BytesIO(data))


class _Pairs:
    """A JSON object as its list of pairs, so that duplicate keys stay visible."""

    def __init__(self, pairs: list[tuple[str, object]]) -> None:
        self.pairs = pairs


def valid_json_oracle(data: bytes) -> dict[str, float] | None:
    """The rewards ``data`` holds if it is a flat object of finite non-bool numbers, else None."""
    try:
        doc = json.loads(data.decode("utf-8"), object_pairs_hook=_Pairs)
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None
    if not isinstance(doc, _Pairs) or not doc.pairs:
        return None
    pairs = doc.pairs
    keys = [k for k, _ in pairs]
    if len(set(keys)) != len(keys):
        return None
    out: dict[str, float] = {}
    for key, value in pairs:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return None
        try:
            number = float(value)
        except OverflowError:
            return None
        if not math.isfinite(number):
            return None
        out[key] = number
    return out


def under_verifier(name: str) -> str | None:
    """The oracle's name for a member below verifier/, or None if it is not below it."""
    if name.startswith("/") or ".." in name.split("/"):
        return None
    parts = [p for p in name.split("/") if p not in ("", ".")]
    return "/".join(parts[1:]) if len(parts) > 1 and parts[0] == "verifier" else None


def primary_oracle(rewards: dict[str, float]) -> float | None:
    if "reward" in rewards:
        return rewards["reward"]
    return next(iter(rewards.values())) if len(rewards) == 1 else None


def same_float(a: float, b: float) -> bool:
    return a == b and math.copysign(1.0, a) == math.copysign(1.0, b)


class _Unseekable(io.RawIOBase):
    """A forward-only stream with short reads, like the Docker SDK's archive chunks."""

    def __init__(self, data: bytes) -> None:
        self._data = io.BytesIO(data)

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        chunk = self._data.read(min(len(buffer), 7))
        buffer[: len(chunk)] = chunk
        return len(chunk)


# --- refusals shared by the parse and judge tests --------------------------------------------

JSON_REFUSALS = {
    "invalid-utf8": b'{"reward": 1, "\xff": 1}',
    "utf8-bom": b'\xef\xbb\xbf{"reward": 1}',
    "invalid-json": b'{"reward": 1',
    "trailing-comma": b'{"reward": 1,}',
    "single-quotes": b"{'reward': 1}",
    "two-documents": b'{"reward": 1} {"reward": 1}',
    "nan": b'{"reward": NaN}',
    "infinity": b'{"reward": Infinity}',
    "minus-infinity": b'{"reward": -Infinity}',
    "overflow": b'{"reward": 1e999}',
    "negative-overflow": b'{"reward": -1e999}',
    "int-overflow": b'{"reward": 1' + b"0" * 400 + b"}",
    "int-digit-limit": b'{"reward": 1' + b"0" * 5000 + b"}",
    "top-level-array": b"[1]",
    "top-level-number": b"1",
    "top-level-string": b'"1"',
    "top-level-null": b"null",
    "top-level-true": b"true",
    "empty-object": b"{}",
    "duplicate-keys": b'{"reward": 0, "reward": 1}',
    "duplicate-other-keys": b'{"reward": 1, "a": 1, "a": 2}',
    "nested-object": b'{"reward": {"value": 1}}',
    "nested-array": b'{"reward": [1]}',
    "string-value": b'{"reward": "1"}',
    "null-value": b'{"reward": null}',
    "true-value": b'{"reward": true}',
    "false-value": b'{"reward": false}',
    "bool-in-other-key": b'{"reward": 1, "ok": true}',
    "deep-nesting": b"[" * 100_000 + b"]" * 100_000,
}

TXT_REFUSALS = {
    "inf": b"inf",
    "minus-inf": b"-inf",
    "infinity": b"Infinity",
    "nan": b"nan",
    "NaN": b"NaN",
    "underscore": b"1_0",
    "arabic-indic-digit": "\u0661".encode(),
    "fullwidth-digit": "\uff11".encode(),
    "overflow": b"1e999",
    "negative-overflow": b"-1e999",
    "hex": b"0x10",
    "two-numbers": b"1 0",
    "two-lines": b"1\n0",
    "comma": b"0,5",
    "word": b"one",
    "bool": b"True",
    "nbsp-padding": "\u00a01".encode(),
    "em-space-padding": "1\u2003".encode(),
    "bom": b"\xef\xbb\xbf1",
    "nul": b"1\x00",
    "invalid-utf8": b"\xff",
    "sign-only": b"-",
    "dot-only": b".",
    "bare-exponent": b"e5",
    "dangling-exponent": b"1e",
    "json-object": b'{"reward": 1}',
}

EMPTY = {"empty": b"", "whitespace": b" \t\r\n\x0b\x0c"}


class TestParseRewardJson:
    @pytest.mark.parametrize("data", JSON_REFUSALS.values(), ids=JSON_REFUSALS.keys())
    def test_refuses(self, data: bytes) -> None:
        """Every malformed or non-finite reward.json raises RewardError."""
        with pytest.raises(RewardError):
            parse_reward_json(data)

    @pytest.mark.parametrize("data", EMPTY.values(), ids=EMPTY.keys())
    def test_empty(self, data: bytes) -> None:
        """An empty or whitespace-only reward.json is reported as empty."""
        with pytest.raises(RewardError, match=r"^reward\.json is empty$"):
            parse_reward_json(data)

    def test_flat_object(self) -> None:
        """A flat object of numbers parses, ints becoming floats."""
        assert parse_reward_json(b'{"reward": 1, "partial": 0.25, "neg": -2e-3}') == {
            "reward": 1.0,
            "partial": 0.25,
            "neg": -0.002,
        }
        assert type(parse_reward_json(b'{"reward": 1}')["reward"]) is float

    def test_error_names_key(self) -> None:
        """The reason names the offending key and what was wrong with it."""
        with pytest.raises(RewardError, match=r"'passed' is a boolean"):
            parse_reward_json(b'{"reward": 1, "passed": true}')

    def test_duplicate_named(self) -> None:
        """A duplicate key is named in the reason."""
        with pytest.raises(RewardError, match=r"duplicate key 'reward'"):
            parse_reward_json(b'{"reward": 1, "reward": 1}')

    def test_root_error_tree(self) -> None:
        """RewardError belongs to fcv's error tree and exits with code 3."""
        with pytest.raises(FcvError) as info:
            parse_reward_json(b"{}")
        assert info.value.exit_code == 3

    @given(S.json_documents)
    def test_json_values(self, doc: object) -> None:
        """Parsing succeeds exactly for non-empty flat dicts of non-bool finite numbers."""
        data = json.dumps(doc, allow_nan=True).encode()
        expected = valid_json_oracle(data)
        event(f"valid: {expected is not None}")
        if expected is None:
            with pytest.raises(RewardError):
                parse_reward_json(data)
        else:
            assert parse_reward_json(data) == expected

    @given(S.reward_json_bytes())
    def test_arbitrary_bytes(self, data: bytes) -> None:
        """For any bytes, parse_reward_json agrees with the oracle or raises RewardError."""
        expected = valid_json_oracle(data)
        if expected is None:
            with pytest.raises(RewardError):
                parse_reward_json(data)
        else:
            assert parse_reward_json(data) == expected

    @given(st.dictionaries(S.reward_keys, S.finite_floats, min_size=1, max_size=4))
    def test_round_trip(self, rewards: dict[str, float]) -> None:
        """Valid finite rewards parse back to the very same floats (sign of zero included)."""
        parsed = parse_reward_json(json.dumps(rewards).encode())
        assert parsed.keys() == rewards.keys()
        assert all(same_float(parsed[k], v) for k, v in rewards.items())


class TestParseRewardTxt:
    @pytest.mark.parametrize("data", TXT_REFUSALS.values(), ids=TXT_REFUSALS.keys())
    def test_refuses(self, data: bytes) -> None:
        """float() oddities, non-ASCII digits and non-finite values raise RewardError."""
        with pytest.raises(RewardError):
            parse_reward_txt(data)

    @pytest.mark.parametrize("data", EMPTY.values(), ids=EMPTY.keys())
    def test_empty(self, data: bytes) -> None:
        """An empty or whitespace-only reward.txt is reported as empty."""
        with pytest.raises(RewardError, match=r"^reward\.txt is empty$"):
            parse_reward_txt(data)

    @pytest.mark.parametrize(
        ("data", "value"),
        [
            (b"1", 1.0),
            (b"0", 0.0),
            (b"1.0\n", 1.0),
            (b" \t0.5\r\n", 0.5),
            (b"\x0b1\x0c", 1.0),
            (b"+1", 1.0),
            (b"-0.25", -0.25),
            (b".5", 0.5),
            (b"1.", 1.0),
            (b"1e0", 1.0),
            (b"25E-2", 0.25),
            (b"1e-999", 0.0),
        ],
    )
    def test_accepts(self, data: bytes, value: float) -> None:
        """Plain ASCII decimals with ASCII whitespace around them parse to the float."""
        assert parse_reward_txt(data) == {"reward": value}

    def test_reason_shows_content(self) -> None:
        """The reason quotes what the file held."""
        with pytest.raises(RewardError, match=r"reward\.txt is not a decimal number: b'1_0'"):
            parse_reward_txt(b"1_0\n")

    @given(S.finite_floats)
    def test_round_trip(self, x: float) -> None:
        """repr() of any finite float parses back to the same float (sign of zero included)."""
        value = parse_reward_txt(repr(x).encode())["reward"]
        assert same_float(value, x)

    @given(S.reward_txt_bytes())
    def test_arbitrary_bytes(self, data: bytes) -> None:
        """For any bytes, a result means a strict decimal, finite and equal to float()."""
        try:
            value = parse_reward_txt(data)["reward"]
        except RewardError:
            event("refused")
            return
        event("accepted")
        stripped = data.strip(ASCII_WS)
        assert STRICT_DECIMAL.fullmatch(stripped)
        assert math.isfinite(value)
        assert same_float(value, float(stripped))


class TestSelectPrimary:
    def test_reward_key_wins(self) -> None:
        """The "reward" key is primary whatever else is there."""
        assert select_primary({"a": 0.0, "reward": 0.5, "z": 1.0}) == 0.5

    def test_single_key(self) -> None:
        """A single key of any name is primary."""
        assert select_primary({"accuracy": 0.75}) == 0.75

    def test_ambiguous(self) -> None:
        """Several keys without "reward" is an error naming them."""
        with pytest.raises(RewardError, match=r"'accuracy', 'speed'"):
            select_primary({"speed": 1.0, "accuracy": 1.0})

    def test_empty(self) -> None:
        """No rewards at all is an error."""
        with pytest.raises(RewardError):
            select_primary({})


class TestJudge:
    def test_pass_txt(self) -> None:
        """reward.txt holding 1 passes at the default threshold."""
        j = judge(txt(b"1\n"))
        assert j == Judgement(
            verdict="pass", reward=1.0, rewards={"reward": 1.0}, error=None, source="reward.txt"
        )

    def test_fail_is_not_error(self) -> None:
        """reward.txt holding 0 is a fail, with the reward, and no error."""
        j = judge(txt(b"0"))
        assert (j.verdict, j.reward, j.error) == ("fail", 0.0, None)

    @pytest.mark.parametrize(
        ("reward", "threshold", "verdict"),
        [
            (b"0.99", 1.0, "fail"),
            (b"1.0", 1.0, "pass"),
            (b"1.5", 1.0, "pass"),
            (b"0.5", 0.5, "pass"),
            (b"0.49", 0.5, "fail"),
            (b"0", 0.0, "pass"),
            (b"-1", -0.5, "fail"),
            (b"-0.0", 0.0, "pass"),
        ],
    )
    def test_threshold(self, reward: bytes, threshold: float, verdict: str) -> None:
        """The verdict is pass iff the reward is at or above the threshold."""
        assert judge(txt(reward), threshold=threshold).verdict == verdict

    @pytest.mark.parametrize("threshold", [math.nan, math.inf, -math.inf])
    def test_threshold_must_be_finite(self, threshold: float) -> None:
        """A non-finite threshold is a programming error, not a verdict."""
        with pytest.raises(ValueError, match="threshold"):
            judge(txt(b"1"), threshold=threshold)

    @pytest.mark.parametrize("data", JSON_REFUSALS.values(), ids=JSON_REFUSALS.keys())
    def test_json_refusal_is_error(self, data: bytes) -> None:
        """Every reward.json refusal is an error verdict without a reward."""
        j = judge(rjson(data))
        assert (j.verdict, j.reward, j.rewards, j.source) == ("error", None, None, "reward.json")
        assert j.error

    @pytest.mark.parametrize("data", TXT_REFUSALS.values(), ids=TXT_REFUSALS.keys())
    def test_txt_refusal_is_error(self, data: bytes) -> None:
        """Every reward.txt refusal is an error verdict without a reward."""
        j = judge(txt(data))
        assert (j.verdict, j.reward, j.source) == ("error", None, "reward.txt")
        assert j.error

    @pytest.mark.parametrize("name", ["reward.json", "reward.txt"])
    def test_empty_file_reason(self, name: str) -> None:
        """An empty reward file is an error saying so."""
        j = judge(VerifierLogs(files={name: b"  \n"}))
        assert (j.verdict, j.error) == ("error", f"{name} is empty")

    def test_no_reward_file(self) -> None:
        """Without either reward file the verdict is an error naming both paths."""
        j = judge(VerifierLogs(files={"test-stdout.txt": b"1 passed"}))
        assert j == error_judgement(
            "no reward file: expected /logs/verifier/reward.json or /logs/verifier/reward.txt"
        )

    def test_nested_reward_file_ignored(self) -> None:
        """A reward file below a subdirectory is not a reward file."""
        assert judge(VerifierLogs(files={"sub/reward.txt": b"1"})).verdict == "error"

    def test_json_wins(self) -> None:
        """reward.json decides even when reward.txt says otherwise."""
        j = judge(VerifierLogs(files={"reward.json": b'{"reward": 0}', "reward.txt": b"1"}))
        assert (j.verdict, j.source, j.reward) == ("fail", "reward.json", 0.0)

    def test_json_wins_pass(self) -> None:
        """reward.json can pass while reward.txt holds junk."""
        j = judge(VerifierLogs(files={"reward.json": b'{"reward": 1}', "reward.txt": b"junk"}))
        assert (j.verdict, j.source) == ("pass", "reward.json")

    @pytest.mark.parametrize("bad", [b"", b"{}", b'{"reward": true}', b"1", b"\xff"])
    def test_bad_json_no_fallback(self, bad: bytes) -> None:
        """A bad reward.json is an error even when reward.txt would pass."""
        j = judge(VerifierLogs(files={"reward.json": bad, "reward.txt": b"1"}))
        assert (j.verdict, j.source) == ("error", "reward.json")

    @pytest.mark.parametrize("reason", ["symbolic link to ../x", "FIFO", "larger than 65536 bytes"])
    def test_skipped_json_no_fallback(self, reason: str) -> None:
        """A skipped reward.json is an error with its reason, never a fall-back to reward.txt."""
        j = judge(VerifierLogs(files={"reward.txt": b"1"}, skipped={"reward.json": reason}))
        assert j.verdict == "error"
        assert j.error == f"reward.json was not read: {reason}"

    def test_skipped_txt(self) -> None:
        """A skipped reward.txt is an error with its reason."""
        j = judge(VerifierLogs(skipped={"reward.txt": "symbolic link to /tmp/1"}))
        assert (j.verdict, j.error) == ("error", "reward.txt was not read: symbolic link to /tmp/1")

    def test_skipped_wins_over_files(self) -> None:
        """A reward file listed both as read and as skipped is an error."""
        j = judge(VerifierLogs(files={"reward.txt": b"1"}, skipped={"reward.txt": "FIFO"}))
        assert j.verdict == "error"

    def test_truncated_reward(self) -> None:
        """A reward file marked truncated is an error, not a partial read."""
        j = judge(VerifierLogs(files={"reward.txt": b"1"}, truncated=frozenset({"reward.txt"})))
        assert (j.verdict, j.error) == ("error", "reward.txt was truncated")

    def test_multi_key_with_reward(self) -> None:
        """With several keys the "reward" key decides and all rewards are kept."""
        j = judge(rjson(b'{"accuracy": 0.1, "reward": 1, "speed": 0.2}'))
        assert (j.verdict, j.reward) == ("pass", 1.0)
        assert j.rewards == {"accuracy": 0.1, "reward": 1.0, "speed": 0.2}

    def test_multi_key_without_reward(self) -> None:
        """Several keys without "reward" is an error naming the keys."""
        j = judge(rjson(b'{"accuracy": 1, "speed": 1}'))
        assert j.verdict == "error"
        assert j.error is not None and "'accuracy', 'speed'" in j.error

    def test_single_other_key(self) -> None:
        """A single key of another name is the reward."""
        j = judge(rjson(b'{"accuracy": 0.5}'), threshold=0.5)
        assert (j.verdict, j.reward) == ("pass", 0.5)

    def test_rewards_read_only(self) -> None:
        """The rewards in a judgement cannot be changed afterwards."""
        j = judge(rjson(b'{"reward": 0}'))
        assert j.rewards is not None
        with pytest.raises(TypeError):
            j.rewards["reward"] = 1.0  # type: ignore[index]

    # Properties: nothing but a valid finite reward >= threshold is ever a pass.

    @given(S.reward_txt_bytes(), S.thresholds)
    def test_txt_pass_implies_valid(self, data: bytes, threshold: float) -> None:
        """A pass from reward.txt means a strict ASCII decimal, finite, >= threshold."""
        j = judge(txt(data), threshold=threshold)
        event(f"verdict: {j.verdict}")
        if j.verdict == "pass":
            stripped = data.strip(ASCII_WS)
            assert STRICT_DECIMAL.fullmatch(stripped)
            value = float(stripped)
            assert math.isfinite(value) and value >= threshold
            assert j.reward == value
        elif j.verdict == "error":
            assert j.reward is None and j.error

    @given(S.reward_json_bytes(), S.thresholds)
    def test_json_bytes_pass_implies_valid(self, data: bytes, threshold: float) -> None:
        """A pass from reward.json bytes means a valid flat object whose primary >= threshold."""
        j = judge(rjson(data), threshold=threshold)
        event(f"verdict: {j.verdict}")
        expected = valid_json_oracle(data)
        if j.verdict == "pass":
            assert expected is not None
            primary = primary_oracle(expected)
            assert primary is not None and primary >= threshold
            assert j.rewards == expected and j.reward == primary
        if expected is None:
            assert j.verdict == "error"

    @given(S.json_documents, S.thresholds)
    def test_json_values_pass_implies_valid(self, doc: object, threshold: float) -> None:
        """A pass means a non-empty flat dict of non-bool finite numbers, primary >= threshold."""
        j = judge(rjson(json.dumps(doc, allow_nan=True).encode()), threshold=threshold)
        event(f"verdict: {j.verdict}")
        if j.verdict == "pass":
            assert isinstance(doc, dict) and doc
            for value in doc.values():
                assert type(value) in (int, float) and math.isfinite(value)
            rewards = {k: float(v) for k, v in doc.items()}
            primary = primary_oracle(rewards)
            assert primary is not None and primary >= threshold

    @given(S.reward_numbers, S.thresholds, st.sampled_from(["txt", "json"]))
    def test_valid_reward_verdict(self, value: float, threshold: float, fmt: str) -> None:
        """A valid reward is never an error: pass iff reward >= threshold, reward read back exact."""
        if fmt == "txt":
            j = judge(txt(repr(value).encode()), threshold=threshold)
        else:
            j = judge(rjson(json.dumps({"reward": value}).encode()), threshold=threshold)
        assert j.verdict == ("pass" if value >= threshold else "fail")
        assert j.reward is not None and same_float(j.reward, float(value))
        target(float(j.verdict == "pass"), label="passes")

    @given(
        st.sampled_from(["reward.json", "reward.txt"]),
        S.skip_reasons,
        S.valid_reward_files,
        S.thresholds,
    )
    def test_skipped_never_passes(
        self, name: str, reason: str, files: dict[str, bytes], threshold: float
    ) -> None:
        """When the deciding reward file is skipped, the verdict is never pass."""
        if name == "reward.txt":
            files.pop("reward.json", None)  # else reward.json, not the skipped file, decides
        j = judge(VerifierLogs(files=files, skipped={name: reason}), threshold=threshold)
        assert j.verdict == "error"
        assert j.error == f"{name} was not read: {reason}"

    @settings(suppress_health_check=[HealthCheck.too_slow])
    @given(S.member_lists(), S.thresholds)
    def test_tar_non_regular_reward_never_passes(
        self, members: list[S.Member], threshold: float
    ) -> None:
        """Through a real tar: if the deciding reward member is not a plain file, no pass."""
        j = judge(read(S.build_tar(members)), threshold=threshold)
        event(f"verdict: {j.verdict}")
        by_name = {
            name: [m for m in members if under_verifier(m.name) == name]
            for name in ("reward.json", "reward.txt")
        }
        chosen = by_name["reward.json"] or by_name["reward.txt"]
        if j.verdict == "pass":
            assert len(chosen) == 1 and chosen[0].kind == "file"
            assert j.source == under_verifier(chosen[0].name)


class TestStrategiesReachPass:
    """The properties above would be vacuous if their strategies never produced a pass."""

    def test_txt_bytes(self) -> None:
        """reward_txt_bytes() produces contents that pass."""
        data = find(S.reward_txt_bytes(), lambda d: judge(txt(d)).verdict == "pass")
        assert judge(txt(data)).verdict == "pass"

    def test_json_bytes(self) -> None:
        """reward_json_bytes() produces contents that pass."""
        data = find(S.reward_json_bytes(), lambda d: judge(rjson(d)).verdict == "pass")
        assert judge(rjson(data)).verdict == "pass"

    def test_json_values(self) -> None:
        """json_documents produces documents that pass, including multi-key ones."""

        def passes(doc: object) -> bool:
            j = judge(rjson(json.dumps(doc, allow_nan=True).encode()))
            return j.verdict == "pass" and isinstance(doc, dict) and len(doc) > 1

        doc = find(S.json_documents, passes)
        assert isinstance(doc, dict) and len(doc) > 1

    def test_tar_members(self) -> None:
        """member_lists() produces archives that pass."""
        members = find(S.member_lists(), lambda ms: judge(read(S.build_tar(ms))).verdict == "pass")
        assert judge(read(S.build_tar(members))).verdict == "pass"


class TestReadVerifierTar:
    def test_regular_files(self) -> None:
        """Regular files are read under names relative to verifier/."""
        out = read(
            S.verifier_tar(
                S.regular("verifier/reward.txt", b"1\n"),
                S.regular("verifier/test-stdout.txt", b"1 passed\n"),
            )
        )
        assert out == VerifierLogs(
            files={"reward.txt": b"1\n", "test-stdout.txt": b"1 passed\n"},
            truncated=frozenset(),
            skipped={},
        )
        assert judge(out).verdict == "pass"

    def test_unseekable_stream(self) -> None:
        """A forward-only stream with short reads is enough: nothing seeks back."""
        data = S.verifier_tar(
            S.regular("verifier/test-stdout.txt", b"log" * 5000),
            S.regular("verifier/reward.txt", b"0"),
        )
        out = read_verifier_tar(_Unseekable(data))
        assert out.files == {"test-stdout.txt": b"log" * 5000, "reward.txt": b"0"}

    def test_nested_files(self) -> None:
        """Files in subdirectories keep their relative path; directories are not listed."""
        out = read(
            S.verifier_tar(
                S.directory("verifier/sub"),
                S.directory("verifier/sub/deeper"),
                S.regular("verifier/sub/deeper/log.txt", b"x"),
                S.regular("verifier/sub/reward.txt", b"1"),
            )
        )
        assert out.files == {"sub/deeper/log.txt": b"x", "sub/reward.txt": b"1"}
        assert out.skipped == {}
        assert judge(out).verdict == "error"

    def test_symlink_reward(self) -> None:
        """A symlinked reward.txt is skipped with its target, and judged an error."""
        out = read(S.verifier_tar(S.symlink("verifier/reward.txt", "../x")))
        assert out.skipped == {"reward.txt": "symbolic link to ../x"}
        assert out.files == {}
        j = judge(out)
        assert (j.verdict, j.error) == ("error", "reward.txt was not read: symbolic link to ../x")

    def test_symlink_json_blocks_txt(self) -> None:
        """A symlinked reward.json is an error even beside a good reward.txt."""
        out = read(
            S.verifier_tar(
                S.symlink("verifier/reward.json", "/tmp/forged.json"),
                S.regular("verifier/reward.txt", b"1"),
            )
        )
        assert judge(out).verdict == "error"

    def test_fifo(self) -> None:
        """A FIFO is skipped as such."""
        out = read(S.verifier_tar(S.special("verifier/reward.txt", "fifo")))
        assert out.skipped == {"reward.txt": "FIFO"}
        assert judge(out).verdict == "error"

    def test_hardlink(self) -> None:
        """A hard link is skipped, naming its target, even to a file that was read."""
        out = read(
            S.verifier_tar(
                S.regular("verifier/a", b"1"),
                S.hardlink("verifier/reward.txt", "verifier/a"),
            )
        )
        assert out.files == {"a": b"1"}
        assert out.skipped == {"reward.txt": "hard link to verifier/a"}
        assert judge(out).verdict == "error"

    @pytest.mark.parametrize(
        ("kind", "reason"), [("chr", "character device"), ("blk", "block device")]
    )
    def test_devices(self, kind: str, reason: str) -> None:
        """Device nodes are skipped as devices."""
        out = read(S.verifier_tar(S.special("verifier/null", kind)))
        assert out.skipped == {"null": reason}
        assert out.files == {}

    def test_huge_reward_not_read(self) -> None:
        """A 10 MB reward.txt is skipped unread, using a small bounded amount of memory."""
        size = 10 * 1024 * 1024
        stream = io.BytesIO(S.verifier_tar(S.regular("verifier/reward.txt", b"1" * size)))
        tracemalloc.start()
        try:
            out = read_verifier_tar(stream)
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        assert out.skipped == {"reward.txt": "larger than 65536 bytes"}
        assert "reward.txt" not in out.files
        assert peak < 1024 * 1024
        assert judge(out).error == "reward.txt was not read: larger than 65536 bytes"

    def test_reward_size_boundary(self) -> None:
        """A reward file of exactly 64 KiB is read; one byte more is skipped."""
        at_cap = b"1" + b" " * (R.MAX_REWARD_BYTES - 1)
        out = read(
            S.verifier_tar(
                S.regular("verifier/reward.txt", at_cap),
                S.regular("verifier/reward.json", b"{}" + b" " * (R.MAX_REWARD_BYTES - 1)),
            )
        )
        assert out.files == {"reward.txt": at_cap}
        assert out.skipped == {"reward.json": "larger than 65536 bytes"}

    @pytest.mark.parametrize(
        ("name", "key", "reason"),
        [
            ("../escape", "../escape", "path contains '..'"),
            ("verifier/../reward.txt", "verifier/../reward.txt", "path contains '..'"),
            ("/verifier/reward.txt", "/verifier/reward.txt", "absolute path"),
            ("other/reward.txt", "../other/reward.txt", "outside verifier/"),
            ("reward.txt", "../reward.txt", "outside verifier/"),
            ("./reward.json", "../reward.json", "outside verifier/"),
        ],
    )
    def test_outside_root(self, name: str, key: str, reason: str) -> None:
        """Members outside verifier/ are skipped, never read, under names no inside file has."""
        out = read(S.verifier_tar(S.regular(name, b"1")))
        assert out.skipped == {key: reason}
        assert out.files == {}
        assert judge(out).verdict == "error"

    def test_dot_prefixed_names(self) -> None:
        """./verifier/... and doubled slashes name the same files."""
        out = read(S.build_tar([S.regular("./verifier//reward.txt", b"1")]))
        assert out.files == {"reward.txt": b"1"}

    def test_duplicate_member(self) -> None:
        """A name that appears twice is skipped: neither copy is trusted."""
        out = read(
            S.verifier_tar(
                S.regular("verifier/reward.txt", b"0"),
                S.regular("verifier/./reward.txt", b"1"),
            )
        )
        assert out.skipped == {"reward.txt": "duplicate member in the archive"}
        assert "reward.txt" not in out.files
        assert judge(out).verdict == "error"

    def test_file_and_directory_same_name(self) -> None:
        """A reward file also listed as a directory is skipped as a duplicate."""
        out = read(
            S.verifier_tar(
                S.regular("verifier/reward.txt", b"1"),
                S.directory("verifier/reward.txt"),
            )
        )
        assert out.skipped == {"reward.txt": "duplicate member in the archive"}
        assert judge(out).verdict == "error"

    def test_root_not_a_directory(self) -> None:
        """A verifier/ that is itself a symlink yields nothing to read."""
        out = read(S.build_tar([S.symlink("verifier", "/tmp")]))
        assert out.files == {}
        assert out.skipped == {".": "expected a directory, found symbolic link to /tmp"}

    def test_outside_cannot_shadow(self) -> None:
        """A reward.txt outside verifier/ neither counts nor hides the real one."""
        out = read(
            S.build_tar([S.regular("reward.txt", b"0"), S.regular("verifier/reward.txt", b"1")])
        )
        assert out.files == {"reward.txt": b"1"}
        assert judge(out).verdict == "pass"

    def test_directory_reward_json(self) -> None:
        """A directory named reward.json decides: an error, no fall-back to reward.txt."""
        out = read(
            S.verifier_tar(
                S.directory("verifier/reward.json"),
                S.regular("verifier/reward.txt", b"1"),
            )
        )
        assert out.skipped == {"reward.json": "directory"}
        j = judge(out)
        assert (j.verdict, j.error) == ("error", "reward.json was not read: directory")

    def test_truncates_logs(self) -> None:
        """A 2 MB test-stdout.txt is cut at 1 MiB and marked truncated."""
        data = bytes(range(256)) * (2 * 1024 * 1024 // 256)
        out = read(S.verifier_tar(S.regular("verifier/test-stdout.txt", data)))
        assert out.files == {"test-stdout.txt": data[: R.MAX_LOG_BYTES]}
        assert out.truncated == {"test-stdout.txt"}

    def test_total_cap(self) -> None:
        """Past 16 MiB in total, further logs are skipped; reward files still are read."""
        chunk = b"x" * R.MAX_LOG_BYTES
        count = R.MAX_TOTAL_BYTES // R.MAX_LOG_BYTES
        logs_ = [S.regular(f"verifier/log{i:02}", chunk) for i in range(count + 1)]
        out = read(S.verifier_tar(*logs_, S.regular("verifier/reward.txt", b"1")))
        assert out.skipped == {f"log{count:02}": "total size cap reached"}
        assert len(out.files) == count + 1
        assert sum(len(v) for v in out.files.values()) == R.MAX_TOTAL_BYTES + 1
        assert judge(out).verdict == "pass"

    def test_member_cap(self) -> None:
        """An archive with more than MAX_MEMBERS entries is refused."""
        many = [S.regular(f"verifier/f{i}", b"") for i in range(R.MAX_MEMBERS)]
        with pytest.raises(RewardError, match="more than"):
            read(S.verifier_tar(*many))

    @pytest.mark.parametrize(
        "data",
        [b"", b"not a tar at all" * 64, "truncated"],
        ids=["empty", "garbage", "truncated"],
    )
    def test_corrupt(self, data: bytes | str) -> None:
        """A corrupt, empty or truncated stream raises RewardError."""
        if data == "truncated":
            full = S.verifier_tar(S.regular("verifier/test-stdout.txt", b"x" * 5000))
            data = full[:2048]
        assert isinstance(data, bytes)
        with pytest.raises(RewardError, match="corrupt or truncated"):
            read(data)

    def test_cut_between_members(self) -> None:
        """A stream cut cleanly between members is refused, so a lost reward.json cannot hide."""
        full = S.verifier_tar(
            S.regular("verifier/reward.txt", b"1"),
            S.regular("verifier/reward.json", b'{"reward": 0}'),
        )
        with tarfile.open(fileobj=io.BytesIO(full)) as tar:
            cut = tar.getmember("verifier/reward.json").offset
        with pytest.raises(RewardError, match="no end-of-archive block"):
            read(full[:cut])

    def test_garbled_header(self) -> None:
        """A garbled header after the first member is refused, not taken as the end."""
        full = bytearray(
            S.verifier_tar(
                S.regular("verifier/reward.txt", b"1"),
                S.regular("verifier/reward.json", b'{"reward": 0}'),
            )
        )
        with tarfile.open(fileobj=io.BytesIO(bytes(full))) as tar:
            at = tar.getmember("verifier/reward.json").offset
        full[at + 148 : at + 156] = b"9999999\0"  # the header checksum
        with pytest.raises(RewardError):
            read(bytes(full))

    @given(S.member_lists(), st.data())
    def test_cut_anywhere(self, members: list[S.Member], data: st.DataObject) -> None:
        """Cut before its end-of-archive block, an archive is refused; after it, read whole."""
        full = S.build_tar(members)
        with tarfile.open(fileobj=io.BytesIO(full)) as tar:
            tar.getmembers()
            end = tar.offset
        cut = data.draw(st.integers(0, len(full)))
        if cut < end + tarfile.BLOCKSIZE:
            event("cut before the end")
            with pytest.raises(RewardError):
                read(full[:cut])
        else:
            event("cut after the end")
            assert read(full[:cut]) == read(full)

    def test_compressed_refused(self) -> None:
        """A compressed stream is refused: the engine sends plain tar."""
        buf = io.BytesIO()
        with tarfile.open(fileobj=buf, mode="w:gz") as tar:
            info = tarfile.TarInfo("verifier/reward.txt")
            info.size = 1
            tar.addfile(info, io.BytesIO(b"1"))
        with pytest.raises(RewardError):
            read(buf.getvalue())

    def test_custom_root(self) -> None:
        """root names the directory the member names start with."""
        data = S.build_tar([S.regular("logs/verifier/reward.txt", b"1")])
        out = read_verifier_tar(io.BytesIO(data), root="logs/verifier")
        assert out.files == {"reward.txt": b"1"}

    @pytest.mark.parametrize("root", ["", "/", "../x"])
    def test_bad_root(self, root: str) -> None:
        """An empty or escaping root is a programming error."""
        with pytest.raises(ValueError, match="root"):
            read_verifier_tar(io.BytesIO(b""), root=root)

    @settings(suppress_health_check=[HealthCheck.too_slow])
    @given(S.member_lists())
    def test_members_property(self, members: list[S.Member]) -> None:
        """Only single regular members under verifier/ are read, with their exact content."""
        out = read(S.build_tar(members))
        assert not set(out.files) & set(out.skipped)
        for key in out.skipped:
            # Outside names can never shadow a name inside verifier/.
            assert (
                key in (".", "..")
                or key.startswith(("/", "../"))
                or ".." in key.split("/")
                or (key in {under_verifier(m.name) for m in members})
            )
        for key, content in out.files.items():
            assert not key.startswith("/") and ".." not in key.split("/")
            sources = [m for m in members if under_verifier(m.name) == key]
            assert len(sources) == 1 and sources[0].kind == "file"
            assert content == sources[0].data

    @given(st.data())
    def test_damaged_archive(self, data: st.DataObject) -> None:
        """A damaged or cut archive is read or raises RewardError, never anything else."""
        members = data.draw(S.member_lists())
        raw = bytearray(S.build_tar(members))
        for _ in range(data.draw(st.integers(0, 4))):
            i = data.draw(st.integers(0, len(raw) - 1))
            raw[i] = data.draw(st.integers(0, 255))
        cut = data.draw(st.integers(0, len(raw)))
        try:
            out = read(bytes(raw[:cut]))
        except RewardError:
            event("refused")
            return
        event("read")
        assert isinstance(out, VerifierLogs)
        assert not set(out.files) & set(out.skipped)


class TestVerifierLogs:
    def test_defaults(self) -> None:
        """All fields default to empty."""
        out = VerifierLogs()
        assert (dict(out.files), out.truncated, dict(out.skipped)) == ({}, frozenset(), {})

    def test_read_only(self) -> None:
        """The mappings cannot be changed after construction."""
        out = VerifierLogs(files={"reward.txt": b"1"})
        with pytest.raises(TypeError):
            out.files["reward.txt"] = b"0"  # type: ignore[index]
        with pytest.raises(attrs.exceptions.FrozenInstanceError):
            out.files = {}  # type: ignore[misc]


class TestJudgement:
    def test_pass_needs_reward(self) -> None:
        """A pass without a reward cannot be built."""
        with pytest.raises(ValueError, match="needs a reward"):
            Judgement(verdict="pass", reward=None, rewards=None, error=None, source=None)

    def test_pass_needs_finite_reward(self) -> None:
        """A pass with a non-finite reward cannot be built."""
        with pytest.raises(ValueError, match="finite"):
            Judgement(
                verdict="pass",
                reward=math.inf,
                rewards={"reward": math.inf},
                error=None,
                source="reward.txt",
            )

    def test_error_needs_reason(self) -> None:
        """An error verdict without a reason cannot be built."""
        with pytest.raises(ValueError, match="needs an error"):
            Judgement(verdict="error", reward=None, rewards=None, error=None, source=None)

    def test_unknown_verdict(self) -> None:
        """Only pass, fail and error are verdicts."""
        with pytest.raises(ValueError, match="verdict"):
            Judgement(verdict="ok", reward=1.0, rewards={"reward": 1.0}, error=None, source=None)


class TestErrorJudgement:
    def test_fields(self) -> None:
        """An error judgement carries the reason and no reward."""
        j = error_judgement("engine went away")
        assert j == Judgement(
            verdict="error", reward=None, rewards=None, error="engine went away", source=None
        )

    def test_source(self) -> None:
        """The reward file can be named."""
        assert error_judgement("bad", source="reward.txt").source == "reward.txt"
