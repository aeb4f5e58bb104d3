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

from isolation.engine import Engine
from isolation.errors import (
    EXIT_ERROR,
    EXIT_FAIL,
    EXIT_PASS,
    AttestationInvalid,
    FcvError,
    UsageError,
)
from verifier import attest, attest_seams, doctor, dsse, images, keys, suite
from verifier.task import Task
from verifier.trial import AgentSpec, TrialOptions, run_trial, signals_as_interrupts
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
    p.add_argument("--snapshot", choices=("volume", "commit"), default="volume",
                   help="volume (default): the frozen workspace volume itself, no copy; "
                        "commit: docker commit + diff kept for forensics, workspace copied "
                        "through the archive API into a fresh volume")
    p.add_argument("--workspace", choices=("ro", "scratch"), default="ro",
                   help="ro (default): the verifier sees the snapshot read-only; scratch: a "
                        "writable throwaway overlay for tests that write into the workspace")
    p.add_argument("--threshold", type=_finite, default=1.0,
                   help="reward at or above which the verdict is pass (default 1.0)")
    p.add_argument("--keep", action="store_true",
                   help="leave the trial's containers, volumes and images for inspection")
    p.add_argument("--json", action="store_true", help="print one JSON document to stdout")
    _add_mitigation_args(p)


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
    g = run.add_argument_group("attestation (split verdict only; docs/attestation.md)")
    g.add_argument("--sign", metavar="KEY", help="Ed25519 private key (fcv keygen) to sign with")
    g.add_argument("--attest", metavar="FILE",
                   help="write the signed verdict (in-toto statement in a DSSE envelope) here")

    cmp = sub.add_parser("compare", help="both verdicts from one agent run, side by side",
                         description="Run the agent once, freeze and snapshot it, then produce "
                                     "the split and the same-container verdict from that one "
                                     "state. Exit 0 unless either verdict is error (3).")
    cmp.add_argument("task", help="Harbor task directory")
    _add_agent_args(cmp)

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
    _add_mitigation_args(suite)

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
    options = TrialOptions(agent=agent, modes=modes, snapshot_method=args.snapshot,
                           workspace=args.workspace, keep=args.keep, threshold=args.threshold,
                           mitigations=_mitigations(args))
    engine = Engine.connect()
    try:
        trial = run_trial(engine, task, options, progress=_status)
    finally:
        engine.close()
    if args.command == "compare":
        comparison = Comparison(same=trial.results["same"], split=trial.results["split"])
        print(format_table(comparison), file=sys.stderr)
        if args.json:
            print(json.dumps(comparison.to_json(), indent=2))
        return comparison.exit_code
    result = trial.results[args.mode]
    reward = "" if result.reward is None else f" (reward {result.reward:g})"
    reason = f": {result.error}" if result.error else ""
    _status(f"verdict {result.verdict.upper()}{reward}{reason}")
    if args.json:
        print(json.dumps(result.to_json(), indent=2))
    if signing is not None:
        try:
            _write_attestation(signing, result, options, args.attest)
        except FcvError as e:
            print(f"fcv: error: no attestation written: {e.diagnostics()}", file=sys.stderr)
            return EXIT_ERROR
    return result.exit_code


def _signing(args: argparse.Namespace, task: Task) -> attest.Signing | None:
    """--sign/--attest checked (the key loads, the task digests) before anything runs."""
    if args.command != "run" or (args.sign is None and args.attest is None):
        return None
    if args.sign is None or args.attest is None:
        raise UsageError("--sign KEY and --attest FILE go together")
    if args.mode != "split":
        raise UsageError("--sign/--attest attest the split verdict only; drop them or use "
                         "--mode split")
    return attest.Signing.prepare(key_path=args.sign, out=args.attest, task=task)


def _write_attestation(signing: attest.Signing, result: TrialResult, options: TrialOptions,
                       path: str) -> None:
    policy_name, policy_digest = attest_seams.policy_identity(result, options.policy)
    inputs = signing.inputs(
        result, snapshot_digest=attest_seams.snapshot_root_digest(result),
        policy_name=policy_name, policy_digest=policy_digest,
        options=attest.verdict_options(threshold=options.threshold,
                                       workspace=options.workspace,
                                       mitigations=options.mitigations))
    keyid = signing.write(result, inputs)
    _status(f"attestation written to {path} (keyid {keyid})")


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
        snapshot = attest_seams.digest_of_export(args.snapshot)
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


def _suite(args: argparse.Namespace) -> int:
    if args.jobs < 1:
        raise UsageError(f"--jobs: expected a positive number, got {args.jobs}")
    cases = suite.discover(args.dirs)
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
                                   on_done=on_done)
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


def _write(path: str, data: bytes) -> None:
    tmp = f"{path}.tmp"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, path)
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
