"""Policy files: the shipped ones load, loading fails closed naming file, key and allowed
values, unsafe keys are listed, and the digest is the file's bytes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from isolation.errors import EXIT_PASS, EXIT_USAGE
from verifier import policy as P
from verifier.cli import main
from verifier.findings import PRIVATE_PATHS
from verifier.policy import Policy, PolicyError
from verifier.trial import AgentSpec, TrialOptions

SHIPPED = ("default", "strict", "harbor-compat")
MINIMAL = 'schema = "fcv.policy/v1"\nname = "t"\n'


def load(text: str) -> Policy:
    return Policy.from_bytes(text.encode(), source="t.toml")


def refused(text: str) -> str:
    with pytest.raises(PolicyError) as e:
        load(text)
    message = str(e.value)
    assert message.startswith("t.toml: "), message
    return message


class TestShipped:
    @pytest.mark.parametrize("name", SHIPPED)
    def test_loads(self, name: str) -> None:
        """Every shipped policy loads, under its own name, with a sha256 digest."""
        policy = Policy.load(name)
        assert policy.name == name and policy.digest.startswith("sha256:")
        assert len(policy.digest) == len("sha256:") + 64

    def test_default_matches_built_in_defaults(self) -> None:
        """default.toml spells out exactly the defaults fcv uses without a policy."""
        policy = Policy.load("default")
        plain = TrialOptions(agent=AgentSpec(kind="none"))
        assert policy.agent == plain.hardening and policy.verifier == plain.verifier_hardening
        assert policy.findings == plain.policy and policy.protected_paths == PRIVATE_PATHS
        assert (policy.snapshot_method, policy.workspace_mode, policy.threshold) == \
            (plain.snapshot_method, plain.workspace, plain.threshold)
        assert policy.unsafe == ()

    def test_strict_is_gvisor_with_read_only_verifier(self) -> None:
        """strict: runsc for both containers, a read-only verifier root, tighter limits."""
        strict, default = Policy.load("strict"), Policy.load("default")
        assert strict.agent.runtime == strict.verifier.runtime == "runsc"
        assert strict.verifier.read_only_rootfs and not default.verifier.read_only_rootfs
        assert strict.agent.pids_limit < default.agent.pids_limit
        assert strict.max_bytes < default.max_bytes and strict.max_files < default.max_files
        assert strict.findings.fail_on > default.findings.fail_on
        assert strict.unsafe == ()

    def test_harbor_compat_names_its_unsafe_keys(self) -> None:
        """harbor-compat turns on exactly the unsafe keys that reproduce Harbor's defaults."""
        compat = Policy.load("harbor-compat")
        assert set(compat.unsafe) == {
            "agent.unsafe_default_capabilities", "agent.unsafe_allow_new_privileges",
            "verifier.unsafe_default_capabilities", "verifier.unsafe_allow_new_privileges",
            "findings.unsafe_ignore_findings", "environment.unsafe_no_safe_defaults"}
        assert compat.agent.cap_drop == () and not compat.agent.no_new_privileges
        assert not compat.safe_defaults and compat.findings.fail_on == frozenset()

    def test_digests_differ(self) -> None:
        """Three policies, three digests."""
        assert len({Policy.load(n).digest for n in SHIPPED}) == 3


class TestDigest:
    @given(st.integers(min_value=0), st.integers(min_value=1, max_value=255))
    def test_one_byte_changes_the_digest(self, where: int, mask: int) -> None:
        """Changing any one byte of a policy file (to one it still loads with) changes the
        digest; a byte that breaks it is refused instead."""
        data = bytearray((Path(P.policy_dir()) / "default.toml").read_bytes())
        original = Policy.from_bytes(bytes(data), source="d.toml").digest
        i = where % len(data)
        data[i] ^= mask
        try:
            changed = Policy.from_bytes(bytes(data), source="d.toml")
        except PolicyError:
            return
        assert changed.digest != original

    def test_digest_is_sha256_of_bytes(self) -> None:
        """The digest is the SHA-256 of the file's exact bytes (comments included)."""
        import hashlib
        text = MINIMAL + "# a comment\n"
        assert load(text).digest == "sha256:" + hashlib.sha256(text.encode()).hexdigest()
        assert load(text).digest != load(MINIMAL).digest


class TestFailsClosed:
    def test_unknown_top_level_key(self) -> None:
        """An unknown key is named with the keys allowed there."""
        message = refused(MINIMAL + "colour = 1\n")
        assert "colour: unknown key" in message and "allowed in the top level" in message

    @pytest.mark.parametrize("section", ["agent", "verifier", "snapshot", "workspace",
                                         "findings", "environment", "verdict"])
    def test_unknown_key_in_each_section(self, section: str) -> None:
        """Every section refuses a key it does not know, naming section.key."""
        message = refused(MINIMAL + f"[{section}]\nbogus_key = 1\n")
        assert f"{section}.bogus_key: unknown key; allowed in [{section}]:" in message

    @given(st.from_regex(r"[a-z_]{1,12}", fullmatch=True))
    def test_random_unknown_keys_never_pass(self, key: str) -> None:
        """No key outside the schema is ever accepted silently."""
        if key in P._SECTIONS["agent"]:
            return
        with pytest.raises(PolicyError):
            load(MINIMAL + f"[agent]\n{key} = 1\n")

    @pytest.mark.parametrize("snippet, expect", [
        ('[agent]\npids_limit = "many"\n', "agent.pids_limit: expected a positive integer"),
        ("[agent]\npids_limit = 0\n", "agent.pids_limit: expected a positive integer"),
        ("[agent]\npids_limit = true\n", "agent.pids_limit: expected a positive integer"),
        ("[agent]\ncpus = nan\n", "agent.cpus: expected a positive number"),
        ("[agent]\ncpus = inf\n", "agent.cpus: expected a positive number"),
        ('[agent]\nruntime = "kata"\n', "agent.runtime: expected one of ['runc', 'runsc']"),
        ('[snapshot]\nmethod = "copy"\n', "snapshot.method: expected one of"),
        ('[workspace]\nmode = "rw"\n', "workspace.mode: expected one of ['ro', 'scratch']"),
        ("[verdict]\nthreshold = 0\n", "verdict.threshold: expected a positive number"),
        ('[agent]\ncap_add = ["SYS_ADMIN"]\n', "agent.cap_add: unknown value 'SYS_ADMIN'"),
        ('[agent]\ncap_add = ["CHOWN", "CHOWN"]\n', "'CHOWN' is listed twice"),
        ('[findings]\nfail_on = ["nope"]\n', "findings.fail_on: unknown value 'nope'"),
        ("[findings]\nfail_on = []\n", "findings.fail_on: must not be empty"),
        ("[findings]\nprotected_paths = []\n", "findings.protected_paths: must not be empty"),
        ('[findings]\nprotected_paths = ["/tests"]\n', "must include ['/logs']"),
        ('[findings]\nprotected_paths = ["/tests", "/logs", "etc"]\n', "absolute, normalised"),
        ('[findings]\nprotected_paths = ["/tests", "/logs", "//x"]\n', "absolute, normalised"),
        ('[environment]\nmitigations = ["magic"]\n', "environment.mitigations: unknown value"),
        ('[workspace]\ncarry = ["/etc/app"]\n', "workspace.carry: '/etc/app': overlaps /etc"),
        ('[workspace]\ncarry = ["/"]\n', "workspace.carry: '/': expected an absolute"),
        ('[workspace]\ncarry = ["/srv", "/srv/x"]\n', "'/srv/x' is inside '/srv'"),
        ('[workspace]\ncarry = ["/logs/x"]\n', "overlaps /logs"),
        ("[environment]\nsafe_defaults = false\n", "write unsafe_no_safe_defaults = true"),
        ("agent = 3\n", "agent: expected a table [agent]"),
    ])
    def test_wrong_values(self, snippet: str, expect: str) -> None:
        """Wrong types, empty lists and unknown values are refused with the key and what is
        allowed."""
        assert expect in refused(MINIMAL + snippet)

    @pytest.mark.parametrize("snippet, expect", [
        ("[agent]\nunsafe_default_capabilities = true\ncap_add = []\n", "contradicts cap_add"),
        ('[findings]\nunsafe_ignore_findings = true\nfail_on = ["setuid-file"]\n',
         "contradicts findings.fail_on"),
        ('[agent]\nunsafe_cap_add = ["CHOWN"]\n', "are not unsafe"),
    ])
    def test_contradictions(self, snippet: str, expect: str) -> None:
        """Keys that contradict each other are refused."""
        assert expect in refused(MINIMAL + snippet)

    def test_schema_and_name_required(self) -> None:
        """A document without the schema line or a name is refused."""
        assert "schema: expected 'fcv.policy/v1'" in refused('name = "x"\n')
        assert "name: required" in refused('schema = "fcv.policy/v1"\n')

    def test_not_toml(self) -> None:
        """A file that is not TOML is refused naming the file."""
        assert "not valid TOML" in refused("[agent\n")


class TestUnsafe:
    def test_unsafe_keys_are_listed(self) -> None:
        """Every unsafe_* key that is on is listed; one that is off is not."""
        policy = load(MINIMAL + '[agent]\nunsafe_cap_add = ["SYS_PTRACE"]\n'
                      "unsafe_allow_new_privileges = false\n")
        assert policy.unsafe == ("agent.unsafe_cap_add",)
        assert "SYS_PTRACE" in policy.agent.cap_add and policy.agent.no_new_privileges

    def test_cli_warns(self, capsys: pytest.CaptureFixture[str]) -> None:
        """`fcv policy show harbor-compat` warns once per unsafe key."""
        assert main(["policy", "show", "harbor-compat"]) == EXIT_PASS
        err = capsys.readouterr().err
        assert err.count("weakens isolation") == 6


class TestCli:
    def test_show_json_is_effective_policy(self, capsys: pytest.CaptureFixture[str]) -> None:
        """`fcv policy show NAME --json` prints every default filled in, with the digest."""
        assert main(["policy", "show", "strict", "--json"]) == EXIT_PASS
        doc = json.loads(capsys.readouterr().out)
        assert doc["digest"] == Policy.load("strict").digest
        assert doc["verifier"]["runtime"] == "runsc" and doc["verifier"]["read_only_rootfs"]
        assert doc["snapshot"]["max_files"] == 200000

    def test_show_by_path_and_unknown_name(self, tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
        """A path works; an unknown name is a usage error listing the known ones."""
        path = tmp_path / "mine.toml"
        path.write_text(MINIMAL)
        assert main(["policy", "show", str(path)]) == EXIT_PASS
        capsys.readouterr()
        assert main(["policy", "show", "nosuch"]) == EXIT_USAGE
        err = capsys.readouterr().err
        assert "no policy named 'nosuch'" in err and "harbor-compat" in err

    def test_list(self, capsys: pytest.CaptureFixture[str]) -> None:
        """`fcv policy list` names every shipped policy with its digest."""
        assert main(["policy", "list"]) == EXIT_PASS
        out = capsys.readouterr().out
        for name in SHIPPED:
            assert f"{name}\t{Policy.load(name).digest}" in out

    def test_bad_policy_stops_run_before_the_engine(self, tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
        """`fcv run --policy BAD` is exit 2 naming the key, before any engine call (the task
        dir here is valid enough to load; the engine is never contacted)."""
        from tests.tasktools import make_task
        task = make_task(tmp_path)
        bad = tmp_path / "bad.toml"
        bad.write_text(MINIMAL + "[agent]\npids = 3\n")
        code = main(["run", str(task), "--agent", "oracle", "--policy", str(bad)])
        assert code == EXIT_USAGE
        assert "agent.pids: unknown key" in capsys.readouterr().err


class TestOptions:
    def test_from_policy_records_name_digest_and_overrides(self) -> None:
        """Options carry the policy's values; a CLI override is recorded with the policy."""
        policy = Policy.load("strict")
        options = TrialOptions.from_policy(policy, agent=AgentSpec(kind="none"),
                                           workspace="scratch", threshold=policy.threshold,
                                           mitigations=("safe-path",))
        assert options.verifier_hardening == policy.verifier
        assert options.max_files == policy.max_files
        assert options.policy_ref == {
            "name": "strict", "digest": policy.digest,
            "overrides": {"workspace.mode": "scratch",
                          "environment.mitigations": ["pin-pytest", "no-plugin-autoload",
                                                      "safe-path"]}}
        assert options.mitigations == ("pin-pytest", "no-plugin-autoload", "safe-path")
