"""Hypothesis strategies and small in-memory tar builders for the tests.

The reward strategies mix hostile input (arbitrary bytes, float() oddities, NaN, booleans,
nesting, duplicate keys) with valid rewards on both sides of the threshold, so that the
"pass implies valid" properties are exercised with real passes and are not vacuous.
"""

from __future__ import annotations

import io
import json
import tarfile
from collections.abc import Iterable

import attrs
from hypothesis import strategies as st

# --- tar members --------------------------------------------------------------------------------

KINDS = ("file", "dir", "symlink", "hardlink", "fifo", "chr", "blk")

_TYPES = {
    "file": tarfile.REGTYPE,
    "dir": tarfile.DIRTYPE,
    "symlink": tarfile.SYMTYPE,
    "hardlink": tarfile.LNKTYPE,
    "fifo": tarfile.FIFOTYPE,
    "chr": tarfile.CHRTYPE,
    "blk": tarfile.BLKTYPE,
}


@attrs.frozen(kw_only=True)
class Member:
    """One tar member to build: a name, a kind from :data:`KINDS`, data or a link target."""

    name: str
    kind: str = attrs.field(default="file", validator=attrs.validators.in_(KINDS))
    data: bytes = b""
    linkname: str = ""


def regular(name: str, data: bytes) -> Member:
    return Member(name=name, kind="file", data=data)


def directory(name: str) -> Member:
    return Member(name=name, kind="dir")


def symlink(name: str, target: str) -> Member:
    return Member(name=name, kind="symlink", linkname=target)


def hardlink(name: str, target: str) -> Member:
    return Member(name=name, kind="hardlink", linkname=target)


def special(name: str, kind: str) -> Member:
    return Member(name=name, kind=kind)


def build_tar(members: Iterable[Member]) -> bytes:
    """An uncompressed tar, like the Docker archive API sends, holding ``members`` in order."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for m in members:
            info = tarfile.TarInfo(m.name)
            info.type = _TYPES[m.kind]
            info.mode = 0o755 if m.kind == "dir" else 0o644
            info.linkname = m.linkname
            if m.kind in ("chr", "blk"):
                info.devmajor, info.devminor = 1, 3
            if m.kind == "file":
                info.size = len(m.data)
                tar.addfile(info, io.BytesIO(m.data))
            else:
                tar.addfile(info)
    return buf.getvalue()


def verifier_tar(*members: Member) -> bytes:
    """A tar starting with the ``verifier/`` directory member, as Docker sends it."""
    return build_tar([directory("verifier"), *members])


_SEGMENTS = st.sampled_from(
    ["verifier", "reward.txt", "reward.json", "test-stdout.txt", "sub", "..", ".", "", "x"]
)


@st.composite
def member_names(draw: st.DrawFn) -> str:
    """Member names around the verifier directory: nested, dotted, absolute, escaping."""
    prefix = draw(st.sampled_from(["verifier/", "verifier/", "verifier/", "", "/", "./", "other/"]))
    parts = draw(st.lists(_SEGMENTS, min_size=1, max_size=3))
    return prefix + "/".join(parts)


@st.composite
def members(draw: st.DrawFn) -> Member:
    kind = draw(st.sampled_from(KINDS))
    name = draw(member_names())
    data = draw(st.one_of(reward_txt_bytes(), st.binary(max_size=32))) if kind == "file" else b""
    linkname = draw(member_names()) if kind in ("symlink", "hardlink") else ""
    return Member(name=name, kind=kind, data=data, linkname=linkname)


@st.composite
def plausible_member_lists(draw: st.DrawFn) -> list[Member]:
    """A well-formed reward file somewhere among arbitrary members, so that passes occur."""
    others = draw(st.lists(members(), max_size=4))
    name = draw(st.sampled_from(["verifier/reward.txt", "verifier/reward.json"]))
    data = draw(padded(formatted_numbers()) if name.endswith(".txt") else dumped_json(reward_dicts))
    others.insert(draw(st.integers(0, len(others))), regular(name, data))
    return others


def member_lists() -> st.SearchStrategy[list[Member]]:
    """Archives of arbitrary members, half of them holding a well-formed reward file."""
    return st.one_of(st.lists(members(), max_size=8), plausible_member_lists())


# --- numbers and thresholds ---------------------------------------------------------------------

finite_floats = st.floats(allow_nan=False, allow_infinity=False)

# Values near the default threshold make both verdicts common.
reward_numbers: st.SearchStrategy[float | int] = st.one_of(
    st.sampled_from([0.0, 1.0, 0.5, 0.99, 1.5, -0.0, 0, 1, 2]),
    finite_floats,
    st.integers(min_value=-(10**6), max_value=10**6),
)

thresholds: st.SearchStrategy[float] = st.one_of(
    st.just(1.0), st.sampled_from([0.0, 0.5, -1.0, 100.0]), finite_floats
)

# --- reward.txt ---------------------------------------------------------------------------------

ASCII_WHITESPACE = " \t\n\r\x0b\x0c"

# Accepted by Python's float() (or looking numeric) yet not a plain ASCII decimal.
FLOAT_ODDITIES = [
    "inf",
    "-inf",
    "+inf",
    "Infinity",
    "nan",
    "NaN",
    "-nan",
    "1_0",
    "1_000.5",
    "\u0661",
    "\u0661.\u0660",
    "\uff11",
    "1e999",
    "-1e999",
    "0x10",
    "1 0",
    "1,0",
    "1.0.0",
    "e5",
    "1e",
    ".",
    "+",
    "-",
    "",
    "True",
    "\u00bd",
    "\u00b2",
    "1\u00a0",
    "\u20031",
    "1\x00",
    "١e1",
]

decimal_text = st.from_regex(
    r"\A[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]{1,3})?\Z", fullmatch=True
)


@st.composite
def formatted_numbers(draw: st.DrawFn) -> str:
    """A number written the ways a verifier might: repr, fixed, exponent, int."""
    x = draw(reward_numbers)
    style = draw(st.sampled_from(["repr", "fixed", "exp", "int"]))
    if style == "fixed":
        return f"{x:.3f}"
    if style == "exp":
        return f"{x:e}"
    if style == "int":
        return str(int(x))
    return repr(x)


@st.composite
def padded(draw: st.DrawFn, core: st.SearchStrategy[str]) -> bytes:
    """``core`` with ASCII (and, rarely, non-ASCII) whitespace around it, UTF-8 encoded."""
    ws = st.text(alphabet=ASCII_WHITESPACE, max_size=3)
    odd_ws = st.one_of(
        st.just(""), st.just(""), st.just(""), st.sampled_from(["\u00a0", "\u2003", "\ufeff"])
    )
    return (draw(odd_ws) + draw(ws) + draw(core) + draw(ws) + draw(odd_ws)).encode()


def reward_txt_bytes() -> st.SearchStrategy[bytes]:
    """Arbitrary bytes, mixed with plenty of valid and nearly valid reward.txt contents."""
    return st.one_of(
        st.binary(max_size=64),
        padded(formatted_numbers()),
        padded(decimal_text),
        padded(st.sampled_from(FLOAT_ODDITIES)),
        padded(st.text(alphabet=st.characters(codec="utf-8"), max_size=8)),
    )


# --- reward.json --------------------------------------------------------------------------------

json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(),  # NaN and infinities included: json.dumps(allow_nan=True) writes the tokens
    st.text(max_size=8),
)

json_values = st.recursive(
    json_scalars,
    lambda children: st.one_of(
        st.lists(children, max_size=4),
        st.dictionaries(st.text(max_size=6), children, max_size=4),
    ),
    max_leaves=10,
)

reward_keys = st.one_of(st.just("reward"), st.text(max_size=8))

reward_dicts = st.dictionaries(reward_keys, reward_numbers, min_size=1, max_size=4)

# Valid dicts with one value swapped for something a verifier might wrongly write.
mostly_valid_dicts = st.builds(
    lambda d, key, bad: {**d, key: bad},
    reward_dicts,
    reward_keys,
    st.one_of(json_scalars, st.lists(reward_numbers, max_size=2)),
)

json_documents = st.one_of(json_values, reward_dicts, mostly_valid_dicts)


@st.composite
def dumped_json(draw: st.DrawFn, documents: st.SearchStrategy[object] = json_documents) -> bytes:
    doc = draw(documents)
    indent = draw(st.sampled_from([None, None, 2]))
    ascii_only = draw(st.booleans())
    text = json.dumps(doc, allow_nan=True, indent=indent, ensure_ascii=ascii_only)
    return draw(padded(st.just(text)))


@st.composite
def json_with_duplicate_keys(draw: st.DrawFn) -> bytes:
    """A JSON object written by hand from pairs, so keys may repeat."""
    pairs = draw(
        st.lists(st.tuples(st.sampled_from(["reward", "a", "b"]), reward_numbers), max_size=4)
    )
    body = ", ".join(f"{json.dumps(k)}: {json.dumps(v)}" for k, v in pairs)
    return ("{" + body + "}").encode()


JSON_ODDITIES = [
    b'{"reward": NaN}',
    b'{"reward": Infinity}',
    b'{"reward": -Infinity}',
    b'{"reward": 1e999}',
    b'{"reward": true}',
    b'{"reward": "1"}',
    b'{"reward": null}',
    b'{"reward": [1]}',
    b'{"reward": {"x": 1}}',
    b"{}",
    b"[]",
    b"1",
    b'"1"',
    b"null",
    b"true",
    b"",
    b'\xef\xbb\xbf{"reward": 1}',
    b'{"reward": 1',
    b'{"reward": 1,}',
    b"{'reward': 1}",
    b'{"reward": 01}',
    b'{"reward": 1}{"reward": 1}',
]


def reward_json_bytes() -> st.SearchStrategy[bytes]:
    """Arbitrary bytes, mixed with valid, hostile and nearly valid reward.json contents."""
    return st.one_of(
        st.binary(max_size=64),
        dumped_json(),
        dumped_json(reward_dicts),
        json_with_duplicate_keys(),
        st.sampled_from(JSON_ODDITIES),
    )


# --- skipped reward files -----------------------------------------------------------------------

skip_reasons = st.sampled_from(
    [
        "symbolic link to ../x",
        "symbolic link to /etc/passwd",
        "hard link to verifier/x",
        "FIFO",
        "character device",
        "larger than 65536 bytes",
        "duplicate member in the archive",
        "total size cap reached",
    ]
)

valid_reward_files = st.fixed_dictionaries(
    {},
    optional={
        "reward.json": dumped_json(reward_dicts),
        "reward.txt": padded(formatted_numbers()),
        "test-stdout.txt": st.binary(max_size=16),
    },
)


# --- snapshot files (isolation.snapshot_file) ---------------------------------------------------

_WS_NAMES = st.sampled_from(["a", "b", "c.txt", "d", "é", "long" * 30])


@st.composite
def workspace_trees(draw: st.DrawFn) -> list[Member]:
    """A valid workspace as the engine streams it: ``workspace`` first, directories before
    their contents, regular files, symlinks (any target, never followed), FIFOs and hard
    links to earlier regular files."""
    out: list[Member] = [directory("workspace")]
    dirs = ["workspace"]
    files: list[str] = []
    used = {"workspace"}
    for _ in range(draw(st.integers(0, 10))):
        parent = draw(st.sampled_from(dirs))
        name = f"{parent}/{draw(_WS_NAMES)}"
        if name in used:
            continue
        used.add(name)
        kind = draw(st.sampled_from(["file", "file", "dir", "symlink", "fifo", "hardlink"]))
        if kind == "hardlink" and not files:
            kind = "file"
        if kind == "file":
            out.append(regular(name, draw(st.binary(max_size=64))))
            files.append(name)
        elif kind == "dir":
            out.append(directory(name))
            dirs.append(name)
        elif kind == "symlink":
            out.append(symlink(name, draw(st.sampled_from(["/etc/passwd", "../..", "a", "x/y"]))))
        elif kind == "fifo":
            out.append(special(name, "fifo"))
        else:
            out.append(hardlink(name, draw(st.sampled_from(files))))
    return out


HOSTILE_EDITS = ("absolute", "dotdot", "device", "hardlink-later", "hardlink-missing",
                 "behind-symlink", "duplicate", "extra", "missing", "content", "mode",
                 "outside", "hardlink-to-dir", "no-parent", "empty-component")
# --- byte flips (attestations) ------------------------------------------------------------------


@st.composite
def byte_flips(draw: st.DrawFn, data: bytes) -> tuple[int, bytes]:
    """(offset, data with the byte at offset XORed with a non-zero mask): one altered byte."""
    offset = draw(st.integers(min_value=0, max_value=len(data) - 1))
    mask = draw(st.integers(min_value=1, max_value=255))
    return offset, data[:offset] + bytes([data[offset] ^ mask]) + data[offset + 1:]
