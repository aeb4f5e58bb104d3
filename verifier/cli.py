"""The ``fcv`` command line.

Exit codes: 0 verified pass, 1 verdict fail, 2 usage error (bad arguments; a task, agent
script or policy that does not exist or does not parse), 3 the verification could not be done.
``--json`` writes exactly one JSON document to stdout; everything for people goes to stderr.
"""

from __future__ import annotations

import argparse
import json
import logging
import math
import os
import sys
import traceback
from collections.abc import Sequence
from typing import Any

from isolation import labels as L
from isolation import snapshot_file as SF
from isolation.engine import Engine
from isolation.errors import (
    EXIT_ERROR,
    EXIT_FAIL,
    EXIT_PASS,
    AttestationInvalid,
    FcvError,
    UsageError,
)
from verifier import attest, attest_inputs, doctor, dsse, images, keys, suite
from verifier import policy as policy_mod
from verifier import regrade as regrading
from verifier.task import Task
from verifier.trial import AgentSpec, Trial, TrialOptions, run_trial, signals_as_interrupts
from verifier.verdict import Comparison, TrialResult, format_table

DESCRIPTION = """\
fcv verifies AI-agent work in a pristine container instead of the one the agent controlled.

The agent runs in a hardened container; when it stops, it is frozen and its workspace is
snapshotted; a new container from the untouched task image mounts the snapshot read-only and
runs tests/test.sh. `fcv compare` also runs Harbor's same-container verification on the very
same frozen agent state, so both verdicts can be compared side by side.

exit codes: 0 pass, 1 fail, 2 usage error, 3 the verification could not be done (error)
"""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> Any:  # argparse's own exit code is already 2
        self.print_usage(sys.stderr)
        raise UsageError(f"{self.prog}: {message}")


def _status(message: str) -> None:
    print(f"fcv: {message}", file=sys.stderr, flush=True)


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"expected a finite number, got {text!r}")
    return value


def _add_agent_args(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("agent (exactly one)")
    g.add_argument("--agent", choices=("oracle", "none"),
                   help="oracle: upload solution/ to /solution and run solve.sh; none: do nothing")
    g.add_argument("--agent-script", metavar="PATH",
                   help="upload PATH and run it as the agent ([agent].user, in the workdir)")
    _add_policy_arg(p)
    p.add_argument("--snapshot", choices=("volume", "commit"), default=None,
                   help="override the policy's snapshot.method. volume: the frozen workspace "
                        "volume itself, no copy; commit: docker commit + diff kept for "
                        "forensics, workspace copied through the archive API into a fresh "
                        "volume")
    p.add_argument("--workspace", choices=("ro", "scratch"), default=None,
                   help="override the policy's workspace.mode. ro: the verifier sees the "
                        "snapshot read-only; scratch: a writable throwaway overlay for tests "
                        "that write into the workspace")
    p.add_argument("--threshold", type=_finite, default=None,
                   help="override the policy's verdict.threshold, the reward at or above which "
                        "the verdict is pass")
    p.add_argument("--keep", action="store_true",
                   help="leave the trial's containers, volumes and images for inspection")
    p.add_argument("--json", action="store_true", help="print one JSON document to stdout")
    p.add_argument("--logs", metavar="DIR",
                   help="also write the agent's output, each verifier's /logs/verifier files "
                        "(test-stdout.txt, reward files) and each verdict document into DIR "
                        "(created; existing files are replaced)")
    _add_mitigation_args(p)


def _add_policy_arg(p: argparse.ArgumentParser) -> None:
    p.add_argument("--policy", metavar="NAME|PATH", default=policy_mod.DEFAULT_POLICY,
                   help="isolation policy: a name from policies/ (default, strict, "
                        "harbor-compat) or a .toml file; recorded with every verdict by name "
                        "and digest (`fcv policy show NAME`). Overrides given on the command "
                        "line are recorded too.")


def _load_policy(name: str) -> policy_mod.Policy:
    policy = policy_mod.Policy.load(name)
    for key in policy.unsafe:
        _status(f"warning: policy {policy.name} weakens isolation: {key} = true")
    return policy


def _add_mitigation_args(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("opt-in verifier mitigations (split verdict only)")
    g.add_argument("--safe-path", action="store_true",
                   help="PYTHONSAFEPATH=1 (closes a pytest.py in the workspace shadowing "
                        "pytest under `cd /app && python3 -m pytest`; breaks scripts that "
                        "import modules beside them)")
    g.add_argument("--pin-pytest", action="store_true",
                   help="PYTEST_ADDOPTS pins pytest's config, rootdir and conftest search to "
                        "/tests (closes workspace conftest.py/pytest.ini; may break tasks that "
                        "rely on an ini file)")
    g.add_argument("--no-plugin-autoload", action="store_true",
                   help="PYTEST_DISABLE_PLUGIN_AUTOLOAD=1 (closes entry-point plugins; tasks "
                        "needing a plugin must load it with -p)")


def _add_attest_args(p: argparse.ArgumentParser, what: str = "the split verdict") -> None:
    g = p.add_argument_group(f"attestation of {what} (docs/attestation.md)")
    g.add_argument("--sign", metavar="KEY", help="Ed25519 private key (fcv keygen) to sign with")
    g.add_argument("--attest", metavar="FILE",
                   help=f"write {what}, signed (an in-toto statement in a DSSE envelope), here")


def _add_limit_args(p: argparse.ArgumentParser) -> None:
    _add_policy_arg(p)
    p.add_argument("--max-files", type=int, default=None,
                   help="refuse snapshots with more entries (default: the policy's "
                        "snapshot.max_files)")
    p.add_argument("--max-bytes", type=int, default=None,
                   help="refuse snapshots with more bytes of files (default: the policy's "
                        "snapshot.max_bytes)")


def _limits(args: argparse.Namespace, policy: policy_mod.Policy) -> SF.ImportLimits:
    try:
        return SF.ImportLimits(
            max_files=policy.max_files if args.max_files is None else args.max_files,
            max_bytes=policy.max_bytes if args.max_bytes is None else args.max_bytes)
    except ValueError as e:
        raise UsageError(f"--max-files/--max-bytes: {e}") from None


def _mitigations(args: argparse.Namespace) -> tuple[str, ...]:
    chosen = (("safe-path", args.safe_path), ("pin-pytest", args.pin_pytest),
              ("no-plugin-autoload", args.no_plugin_autoload))
    return tuple(name for name, on in chosen if on)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="fcv", description=DESCRIPTION,
                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="show engine retries and tracebacks")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    run = sub.add_parser("run", help="run an agent on a task and verify it",
                         description="Run an agent on a Harbor task, freeze it, snapshot its "
                                     "workspace and verify. Exit 0 pass, 1 fail, 2 usage, 3 error.")
    run.add_argument("task", help="Harbor task directory (task.toml, tests/test.sh, ...)")
    run.add_argument("--mode", choices=("split", "same"), default="split",
                     help="split (default): pristine verifier over the read-only snapshot; "
                          "same: Harbor's shared mode inside the agent's own container")
    _add_agent_args(run)
    _add_attest_args(run)

    cmp = sub.add_parser("compare", help="both verdicts from one agent run, side by side",
                         description="Run the agent once, freeze and snapshot it, then produce "
                                     "the split and the same-container verdict from that one "
                                     "state. Exit 0 unless either verdict is error (3).")
    cmp.add_argument("task", help="Harbor task directory")
    _add_agent_args(cmp)
    _add_attest_args(cmp)

    suite = sub.add_parser(
        "suite", help="run a corpus of attack and honest cases, check every expectation",
        description="Run every case (a directory with case.toml) under DIR with `compare`, in "
                    "parallel, and check its expectations. Exit 0 when all hold, 1 when any is "
                    "violated, 2 when a case does not load.")
    suite.add_argument("dirs", nargs="+", metavar="DIR", help="corpus directories")
    suite.add_argument("--jobs", "-j", type=int, default=2, help="cases at a time (default 2)")
    suite.add_argument("--json", metavar="FILE", help="write the full results as JSON")
    suite.add_argument("--junit", metavar="FILE", help="write JUnit XML, one test per case")
    suite.add_argument("--markdown", metavar="FILE", help="write the summary table")
    _add_policy_arg(suite)
    _add_mitigation_args(suite)

    pol = sub.add_parser("policy", help="show and check isolation policies",
                         description="Policies live in policies/*.toml (data only, schema "
                                     f"{policy_mod.SCHEMA}). A verdict records its policy's "
                                     "name and digest: SHA-256 of the file's bytes.")
    pol_sub = pol.add_subparsers(dest="policy_command", required=True, parser_class=_Parser)
    show = pol_sub.add_parser("show", help="print the effective policy (every default filled "
                                           "in) and its digest; exit 2 if it does not load")
    show.add_argument("name", metavar="NAME|PATH")
    show.add_argument("--json", action="store_true", help="one JSON document to stdout")
    pol_sub.add_parser("list", help="the named policies and their digests")
    snap = sub.add_parser(
        "snapshot", help="export a snapshot to a file, or import one into a volume",
        description="Snapshot files: a gzip-compressed tar holding manifest.json (every entry "
                    "and the root digest), optionally result.json (the trial's verdict), and "
                    "workspace/. See docs/formats.md.")
    snap_sub = snap.add_subparsers(dest="snapshot_command", required=True, parser_class=_Parser)
    exp = snap_sub.add_parser(
        "export", help="write a kept trial's snapshot (or a volume) to FILE",
        description="Stream the snapshot of a trial kept with `fcv run --keep` (its snapshot "
                    "volume, else its workspace volume), or the named volume, out through the "
                    "Engine archive API of a never-started container into FILE, with its "
                    "manifest first. Nothing from the agent's image runs.")
    exp.add_argument("source", metavar="TRIAL_OR_VOLUME", help="trial id or volume name")
    exp.add_argument("-o", "--output", required=True, metavar="FILE", help="file to write")
    exp.add_argument("--result", metavar="FILE",
                     help="embed this fcv.trial/v1 document (from `fcv run --json`) as "
                          "result.json, the old verdict for `fcv regrade`")
    exp.add_argument("--json", action="store_true", help="print the manifest summary as JSON")
    imp = snap_sub.add_parser(
        "import", help="validate FILE and load it into a new labelled volume",
        description="Validate every member of a snapshot file (no absolute paths, no '..', "
                    "no device nodes, hard links only to earlier files, nothing behind a "
                    "symlink, counts and sizes within limits, digests matching the manifest) "
                    "while streaming it into a new volume through the Engine API; nothing is "
                    "extracted on this machine. A bad or tampered file is refused (exit 2) "
                    "naming the member and the reason. The volume is labelled "
                    "fcv.trial=<new id>; `fcv gc --trial ID` removes it.")
    imp.add_argument("file", metavar="FILE")
    imp.add_argument("--check", action="store_true",
                     help="only validate the file (no engine needed), do not import")
    _add_limit_args(imp)
    imp.add_argument("--json", action="store_true", help="print one JSON document")

    reg = sub.add_parser(
        "regrade", help="verify a snapshot file again with a task's pristine verifier",
        description="Import SNAPSHOT_FILE, build TASK's image and run its tests/test.sh (which "
                    "may be newer than the ones that produced the old verdict) in a pristine "
                    "container over the read-only snapshot. Prints both verdicts; exit code "
                    "from the new one (0 pass, 1 fail, 2 usage or refused file, 3 error).")
    reg.add_argument("snapshot_file", metavar="SNAPSHOT_FILE")
    reg.add_argument("task", metavar="TASK", help="Harbor task directory")
    reg.add_argument("--old-result", metavar="FILE",
                     help="the old fcv.trial/v1 document (default: result.json in the file)")
    reg.add_argument("--workspace", choices=("ro", "scratch"), default=None,
                     help="override the policy's workspace.mode (ro or scratch), as for "
                          "`fcv run`")
    reg.add_argument("--threshold", type=_finite, default=None,
                     help="override the policy's verdict.threshold")
    reg.add_argument("--json", action="store_true", help="print one fcv.regrade/v1 document")
    _add_limit_args(reg)
    _add_mitigation_args(reg)
    _add_attest_args(reg, what="the new verdict")

    img = sub.add_parser("images", help="local base images (no registry)")
    img_sub = img.add_subparsers(dest="images_command", required=True, parser_class=_Parser)
    boot = img_sub.add_parser(
        "bootstrap", help=f"build {' and '.join(images.BASE_IMAGES)} if missing",
        description="Build fcv/busybox:latest (static busybox) and fcv/python:bookworm "
                    "(debootstrap minbase + python3 + pytest) without any registry. Existing "
                    "images are skipped unless --force.")
    boot.add_argument("--force", action="store_true", help="rebuild images that exist")
    img_sub.add_parser("status", help="show whether the base images exist")

    kg = sub.add_parser("keygen", help="create an Ed25519 key pair for attestations",
                        description="Write PREFIX.key (PKCS#8 PEM, mode 0600) and PREFIX.pub "
                                    "(SubjectPublicKeyInfo PEM). Never overwrites.")
    kg.add_argument("prefix", metavar="PREFIX")

    att = sub.add_parser("attest", help="check signed verdict attestations")
    att_sub = att.add_subparsers(dest="attest_command", required=True, parser_class=_Parser)
    ver = att_sub.add_parser(
        "verify", help="check an attestation's signature, format and (optionally) snapshot",
        description="Check FILE's DSSE envelope, Ed25519 signature, keyid, in-toto statement "
                    "and predicate; with --snapshot, recompute the snapshot export's root "
                    "digest and compare it with the subject. Exit 0 valid (whatever the "
                    "attested verdict), 1 rejected (the message names the check), 2 usage.")
    ver.add_argument("file", metavar="FILE")
    ver.add_argument("--pubkey", metavar="PUB", required=True, help="signer's public key (PEM)")
    ver.add_argument("--snapshot", metavar="FILE", help="snapshot export to check the subject")
    ver.add_argument("--json", action="store_true", help="print one JSON document to stdout")

    doc = sub.add_parser("doctor", help="check the engine, gVisor, seccomp and base images")
    doc.add_argument("--json", action="store_true")

    gc = sub.add_parser("gc", help="remove everything labelled fcv.trial (crashed runs)")
    gc.add_argument("--dry-run", action="store_true", help="only list what would be removed")
    gc.add_argument("--trial", metavar="ID", help="only this trial's resources")
    gc.add_argument("--all", action="store_true",
                    help="also trials whose fcv process still runs on this host (by default "
                         "they are in progress and spared)")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    verbose = "-v" in (argv if argv is not None else sys.argv[1:]) or \
        "--verbose" in (argv if argv is not None else sys.argv[1:])
    logging.basicConfig(level=logging.INFO if verbose else logging.WARNING,
                        format="fcv: %(message)s")
    try:
        try:
            args = parser.parse_args(argv)
        except SystemExit as e:  # --help
            return int(e.code or 0)
        return _dispatch(args)
    except FcvError as e:
        print(f"fcv: error: {e.diagnostics()}", file=sys.stderr)
        if verbose:
            traceback.print_exc()
        return e.exit_code
    except KeyboardInterrupt:
        print("fcv: interrupted; the resources of unfinished trials were removed (unless "
              "--keep)", file=sys.stderr)
        return 130
    except Exception as e:  # noqa: BLE001 - a bug must never read as a verdict
        print(f"fcv: internal error: {type(e).__name__}: {e}\n  the verification could not "
              "be done; run with -v for the traceback and report it", file=sys.stderr)
        if verbose:
            traceback.print_exc()
        return EXIT_ERROR


def _dispatch(args: argparse.Namespace) -> int:
    if args.command in ("run", "compare"):
        return _run(args)
    if args.command == "suite":
        return _suite(args)
    if args.command == "images":
        return _images(args)
    if args.command == "doctor":
        return _doctor(args)
    if args.command == "gc":
        return _gc(args)
    if args.command == "policy":
        return _policy(args)
    if args.command == "snapshot":
        return _snapshot(args)
    if args.command == "regrade":
        return _regrade(args)
    if args.command == "keygen":
        return _keygen(args)
    if args.command == "attest":
        return _attest_verify(args)
    raise UsageError(f"unknown command {args.command}")


def _load_task(path: str) -> Task:
    if not os.path.exists(path):
        raise UsageError(f"{path}: task directory does not exist")
    return Task.from_dir(path)


def _run(args: argparse.Namespace) -> int:
    agent = AgentSpec.parse(args.agent, args.agent_script)
    task = _load_task(args.task)
    modes = ("split", "same") if args.command == "compare" else (args.mode,)
    signing = _signing(args, task)
    policy = _load_policy(args.policy)
    options = TrialOptions.from_policy(policy, agent=agent, modes=modes, keep=args.keep,
                                       snapshot_method=args.snapshot, workspace=args.workspace,
                                       threshold=args.threshold, mitigations=_mitigations(args))
    if args.logs:
        _check_logs_dir(args.logs)
    if "same" in modes and policy.agent.runtime == "runsc":
        _status("warning: same-container verdicts under gVisor are unreliable: gVisor caches "
                "its root filesystem, so tests the engine copies into the running sandbox may "
                "not be seen (SECURITY.md); compare with --policy harbor-compat for Harbor "
                "parity")
    engine = Engine.connect()
    try:
        trial = run_trial(engine, task, options, progress=_status)
    finally:
        engine.close()
    if args.logs:
        _write_logs(args.logs, trial)
    if args.command == "compare":
        comparison = Comparison(same=trial.results["same"], split=trial.results["split"])
        print(format_table(comparison), file=sys.stderr)
        if args.json:
            print(json.dumps(comparison.to_json(), indent=2))
        return _attested(signing, trial.results["split"], options, comparison.exit_code)
    result = trial.results[args.mode]
    reward = "" if result.reward is None else f" (reward {result.reward:g})"
    reason = f": {result.error}" if result.error else ""
    _status(f"verdict {result.verdict.upper()}{reward}{reason}")
    if args.json:
        print(json.dumps(result.to_json(), indent=2))
    return _attested(signing, result, options, result.exit_code)


def _attested(signing: attest.Signing | None, result: TrialResult, options: TrialOptions,
              code: int) -> int:
    """``code``, after writing the attestation of ``result`` if asked (--sign/--attest);
    :data:`EXIT_ERROR` when it cannot be written (the verdict was printed all the same)."""
    if signing is None:
        return code
    try:
        _write_attestation(signing, result, options)
    except FcvError as e:
        print(f"fcv: error: no attestation written: {e.diagnostics()}", file=sys.stderr)
        return EXIT_ERROR
    return code


def _check_logs_dir(path: str) -> None:
    """--logs DIR must be creatable and writable before anything runs."""
    try:
        os.makedirs(path, exist_ok=True)
    except OSError as e:
        raise UsageError(f"--logs {path}: cannot create the directory: {e.strerror}") from None
    if not os.access(path, os.W_OK | os.X_OK):
        raise UsageError(f"--logs {path}: directory is not writable")


def _write_logs(path: str, trial: Trial) -> None:
    """The agent's output, each mode's verifier files and verdict, under DIR."""
    _write(os.path.join(path, "agent-output.txt"), trial.agent_output, quiet=True)
    for mode, result in trial.results.items():
        logs = trial.verifier_logs.get(mode)
        mode_dir = os.path.join(path, mode)
        os.makedirs(mode_dir, exist_ok=True)
        for name, data in (logs.files.items() if logs else ()):
            # Names come from the verifier's tar stream, already plain file names; the check
            # keeps a hostile name from leaving DIR all the same.
            if name != os.path.basename(name) or name in ("", ".", ".."):
                continue
            _write(os.path.join(mode_dir, name), data, quiet=True)
        _write(os.path.join(path, f"{mode}.json"),
               (json.dumps(result.to_json(), indent=2) + "\n").encode(), quiet=True)
    _status(f"logs written to {path}")


def _signing(args: argparse.Namespace, task: Task) -> attest.Signing | None:
    """--sign/--attest checked (the key loads, the task digests) before anything runs."""
    if args.sign is None and args.attest is None:
        return None
    if args.sign is None or args.attest is None:
        raise UsageError("--sign KEY and --attest FILE go together")
    if args.command == "run" and args.mode != "split":
        raise UsageError("--sign/--attest attest the split verdict only; drop them or use "
                         "--mode split")
    warning = keys.exposure(args.sign)
    if warning:
        _status(f"warning: {warning}")
    return attest.Signing.prepare(key_path=args.sign, out=args.attest, task=task)


def _write_attestation(signing: attest.Signing, result: TrialResult,
                       options: TrialOptions) -> None:
    policy_name, policy_digest = attest_inputs.policy_identity(result)
    inputs = signing.inputs(
        result, snapshot_digest=attest_inputs.snapshot_root_digest(result),
        policy_name=policy_name, policy_digest=policy_digest,
        options=attest.verdict_options(threshold=options.threshold,
                                       workspace=options.workspace,
                                       mitigations=options.mitigations))
    keyid = signing.write(result, inputs)
    _status(f"attestation written to {signing.out} (keyid {keyid})")


def _keygen(args: argparse.Namespace) -> int:
    key_path, pub_path, keyid = keys.generate(args.prefix)
    _status(f"wrote {key_path} (private, mode 0600) and {pub_path}; keyid {keyid}")
    return EXIT_PASS


def _attest_verify(args: argparse.Namespace) -> int:
    public_key = keys.load_public_key(args.pubkey)
    try:
        with open(args.file, "rb") as f:
            data = f.read(dsse.MAX_ENVELOPE_BYTES + 1)
    except FileNotFoundError as e:
        raise UsageError(f"{args.file}: attestation file does not exist") from e
    except OSError as e:
        raise UsageError(f"{args.file}: cannot read the attestation: {e.strerror}") from e
    snapshot = None
    if args.snapshot is not None:
        if not os.path.isfile(args.snapshot):
            raise UsageError(f"{args.snapshot}: snapshot file does not exist")
        snapshot = attest_inputs.digest_of_export(args.snapshot)
    try:
        verified = attest.verify_attestation(data, public_key, snapshot_digest=snapshot)
    except AttestationInvalid as e:
        if args.json:
            print(json.dumps({"schema": attest.VERIFY_SCHEMA, "valid": False,
                              "check": e.check, "message": str(e)}, indent=2))
        raise
    if args.json:
        print(json.dumps(verified.to_json(), indent=2))
    print(verified.summary(), file=sys.stderr)
    return EXIT_PASS
def _read_json(path: str, what: str) -> dict[str, Any]:
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        raise UsageError(f"{path}: cannot read {what}: {e}") from None
    if not isinstance(doc, dict):
        raise UsageError(f"{path}: {what} is not a JSON object")
    return doc


def _snapshot(args: argparse.Namespace) -> int:
    limits = _limits(args, _load_policy(args.policy)) if args.snapshot_command == "import" \
        else None
    if args.snapshot_command == "import" and args.check:
        assert limits is not None
        m = SF.verify_file(args.file, limits=limits)
        _status(f"{args.file}: valid, {m.files} entries, {m.bytes} bytes, {m.root_digest}")
        if args.json:
            print(json.dumps({"schema": "fcv.snapshot-check/v1", "file": args.file,
                              **m.summary()}, indent=2))
        return EXIT_PASS
    if args.snapshot_command == "export":
        result = _read_json(args.result, "the trial result") if args.result else None
    engine = Engine.connect()
    trial_id = L.new_trial_id()
    try:
        with signals_as_interrupts():
            if args.snapshot_command == "export":
                volume = SF.find_volume(engine, args.source)
                carried = ", ".join(_carried_paths(result))
                if not carried and volume != args.source and any(
                        "-carry-" in v for v in engine.list_labelled(args.source)["volumes"]):
                    carried = "directories outside its workspace"
                if carried:
                    _status(f"warning: the trial also carried {carried} to its verifier "
                            "(workspace.carry); snapshot files hold the workspace only, so a "
                            "regrade of this file does not see them")
                _status(f"exporting volume {volume} to {args.output}")
                m = SF.export_volume(
                    engine, volume, args.output, trial_id=trial_id, result=result,
                    progress=lambda done, total: _status(SF.progress_line("exporting", done,
                                                                          total)))
                _status(f"wrote {args.output}: {m.files} entries, {m.bytes} bytes, "
                        f"{m.root_digest}")
                if args.json:
                    print(json.dumps({"schema": "fcv.snapshot-export/v1", "file": args.output,
                                      "volume": volume, **m.summary()}, indent=2))
                return EXIT_PASS
            assert limits is not None
            imported = SF.import_file(
                engine, args.file, trial_id=trial_id, limits=limits,
                progress=lambda done, total: _status(SF.progress_line("importing", done,
                                                                      total)))
            keep_id = trial_id
            trial_id = ""  # the imported volume stays: it is what was asked for
            _status(f"imported {args.file} into volume {imported.volume} (fcv.trial={keep_id}; "
                    f"`fcv gc --trial {keep_id}` removes it): {imported.manifest.root_digest}")
            if args.json:
                print(json.dumps({"schema": "fcv.snapshot-import/v1", "file": args.file,
                                  "volume": imported.volume, "trial_id": keep_id,
                                  **imported.manifest.summary()}, indent=2))
            return EXIT_PASS
    finally:
        if trial_id:
            engine.remove_labelled(trial_id)
        engine.close()


def _carried_paths(result: Any) -> list[str]:
    """The carried directories a trial document records (``snapshot.carried[].path``)."""
    snapshot = result.get("snapshot") if isinstance(result, dict) else None
    carried = snapshot.get("carried") if isinstance(snapshot, dict) else None
    if not isinstance(carried, list):
        return []
    return [str(c["path"]) for c in carried if isinstance(c, dict) and "path" in c]


def _regrade(args: argparse.Namespace) -> int:
    task = _load_task(args.task)
    signing = _signing(args, task)
    old = _read_json(args.old_result, "the old trial result") if args.old_result else None
    policy = _load_policy(args.policy)
    if signing is not None and policy.carry:
        raise UsageError(f"--sign/--attest: policy {policy.name} carries "
                         f"{', '.join(policy.carry)} to the verifier, but snapshot files hold "
                         "the workspace only, so a regrade under it cannot be attested as "
                         "that policy's verdict; regrade under a policy without "
                         "workspace.carry")
    options = TrialOptions.from_policy(policy, agent=AgentSpec(kind="none"),
                                       workspace=args.workspace, threshold=args.threshold,
                                       mitigations=_mitigations(args))
    limits = _limits(args, policy)
    engine = Engine.connect()
    try:
        outcome = regrading.regrade(engine, args.snapshot_file, task, old=old,
                                    options=options, limits=limits, progress=_status)
    finally:
        engine.close()
    new = outcome.new
    if _carried_paths(outcome.old) or policy.carry:
        paths = ", ".join(_carried_paths(outcome.old) or policy.carry)
        _status(f"warning: carried directories ({paths}) are not part of snapshot files; the "
                "new verdict was computed on the workspace alone")
    before = (outcome.old or {}).get("verdict", "unknown")
    reason = f": {new.error}" if new.error else ""
    _status(f"old verdict {str(before).upper()}, new verdict {new.verdict.upper()}{reason} "
            f"(snapshot {outcome.root_digest})")
    if args.json:
        print(json.dumps(outcome.to_json(), indent=2))
    return _attested(signing, new, options, new.exit_code)


def _suite(args: argparse.Namespace) -> int:
    if args.jobs < 1:
        raise UsageError(f"--jobs: expected a positive number, got {args.jobs}")
    cases = suite.discover(args.dirs)
    policy = _load_policy(args.policy)
    known = {*policy_mod.available(), policy.name}
    for case in cases:
        unknown = sorted(name for name, _ in case.overrides if name not in known)
        if unknown:
            _status(f"warning: {case.path}/case.toml: [policy.{unknown[0]}] names no policy "
                    f"here (known: {', '.join(sorted(known))}); it never applies")
    mitigations = _mitigations(args)
    _status(f"suite: {len(cases)} cases, {args.jobs} at a time")
    tty = sys.stderr.isatty()

    def on_done(outcome: suite.Outcome, done: int, total: int) -> None:
        prefix = f"[{done:>{len(str(total))}}/{total}] "
        if tty:
            print("\r\033[K", end="", file=sys.stderr)
        print(prefix + suite.describe(outcome), file=sys.stderr, flush=True)
        if tty and done < total:
            print(f"running... {done}/{total} done", end="", file=sys.stderr, flush=True)

    with signals_as_interrupts():
        outcomes = suite.run_suite(cases, jobs=args.jobs, mitigations=mitigations,
                                   on_done=on_done, policy=policy)
    figures = suite.summary(outcomes)
    if args.json:
        _write(args.json, json.dumps(suite.to_json(outcomes, mitigations=mitigations),
                                     indent=2).encode())
    if args.junit:
        _write(args.junit, suite.to_junit(outcomes))
    if args.markdown:
        _write(args.markdown, suite.to_markdown(outcomes).encode())
    print(suite.to_markdown(outcomes), file=sys.stderr)
    _status(", ".join(f"{k} {v}" for k, v in figures.items()))
    return EXIT_FAIL if figures["expectation_violations"] else EXIT_PASS


def _write(path: str, data: bytes, *, quiet: bool = False) -> None:
    tmp = f"{path}.tmp"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, path)
    if not quiet:
        _status(f"wrote {path}")


def _images(args: argparse.Namespace) -> int:
    engine = Engine.connect()
    try:
        if args.images_command == "bootstrap":
            images.bootstrap(engine, force=args.force, progress=_status)
            return EXIT_PASS
        missing = 0
        for status in images.status(engine):
            state = status.image_id[:19] if status.image_id else "missing (fcv images bootstrap)"
            print(f"{status.name}\t{state}")
            missing += status.image_id is None
        return EXIT_FAIL if missing else EXIT_PASS
    finally:
        engine.close()


def _doctor(args: argparse.Namespace) -> int:
    checks = doctor.run_checks()
    if args.json:
        print(json.dumps({"schema": "fcv.doctor/v1", "ok": all(c.ok for c in checks),
                          "checks": [c.to_json() for c in checks]}, indent=2))
    for c in checks:
        mark = "ok  " if c.ok else "MISS"
        print(f"[{mark}] {c.name}: {c.detail}", file=sys.stderr)
        if c.fix:
            print(f"       fix: {c.fix}", file=sys.stderr)
    return EXIT_PASS if all(c.ok for c in checks) else EXIT_FAIL


def _policy(args: argparse.Namespace) -> int:
    if args.policy_command == "list":
        for name in policy_mod.available():
            try:
                loaded = policy_mod.Policy.load(name)
                print(f"{name}\t{loaded.digest}\t{loaded.description}")
            except policy_mod.PolicyError as e:
                print(f"{name}\tINVALID\t{e}")
        return EXIT_PASS
    policy = _load_policy(args.name)
    if args.json:
        print(json.dumps(policy.to_json(), indent=2))
    else:
        print(_policy_text(policy.to_json()))
    return EXIT_PASS


def _policy_text(doc: dict[str, Any]) -> str:
    lines = [f"# {doc['name']}: {doc['description']}", f"# source {doc['source']}",
             f"# digest {doc['digest']}"]
    for key in ("agent", "verifier", "snapshot", "workspace", "findings", "environment",
                "verdict"):
        lines.append(f"[{key}]")
        lines += [f"{k} = {json.dumps(v)}" for k, v in doc[key].items()]
    if doc["unsafe"]:
        lines.append("# unsafe: " + ", ".join(doc["unsafe"]))
    return "\n".join(lines)


def _gc(args: argparse.Namespace) -> int:
    engine = Engine.connect()
    try:
        spare = not args.all
        found = engine.list_labelled(args.trial, spare_live=spare)
        summary = ", ".join(f"{len(v)} {k}" for k, v in found.items())
        if args.dry_run:
            _status(f"would remove {summary}")
            return EXIT_PASS
        removed = engine.remove_labelled(args.trial, spare_live=spare)
        _status("removed " + ", ".join(f"{v} {k}" for k, v in removed.items()))
        return EXIT_PASS
    finally:
        engine.close()


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
