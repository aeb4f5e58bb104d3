"""Pure: the split verifier's process environment.

The verifier container inherits nothing from this machine: its environment is the pristine
image's ``ENV``, then fcv's safe defaults, then the task's ``[environment].env`` and
``[verifier].env`` (which win: a task that needs another value says so). ``PATH`` is set
explicitly to the pristine image's value unless the task sets its own.

Defaults that cannot break a correct task are always on; those that could are opt-in
(:data:`OPT_IN`), and their cost is measured on the honest corpus (see SECURITY.md).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

DEFAULT_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

#: Always set for the split verifier (a task may override each):
#: PYTHONDONTWRITEBYTECODE - nothing tries to write ``__pycache__`` into the read-only snapshot.
#: PYTHONPYCACHEPREFIX - Python looks for cached bytecode only under this (empty, tmpfs) tree,
#:   never in the workspace's ``__pycache__``, so a forged ``.pyc`` whose header matches the
#:   source (B13) is never loaded. Sources are compiled afresh; nothing correct depends on the
#:   agent's cache.
PYCACHE_PREFIX = "/tmp/fcv-pycache"
SAFE_DEFAULTS: Mapping[str, str] = {"PYTHONDONTWRITEBYTECODE": "1",
                                    "PYTHONPYCACHEPREFIX": PYCACHE_PREFIX}

#: Opt-in mitigations that a correct task could notice, by CLI flag name.
OPT_IN: Mapping[str, Mapping[str, str]] = {
    # Python 3.11+ puts no script/cwd directory first on sys.path, so a ``pytest.py`` in the
    # workspace cannot shadow a module when test.sh does ``cd /app && python3 -m pytest``
    # (C18). Opt-in: it also stops ``python3 /tests/grade.py`` from importing its sibling
    # ``/tests/helper.py``, a common and correct pattern.
    "safe-path": {"PYTHONSAFEPATH": "1"},
    # pytest ignores ini files and conftest.py outside /tests (B6, B7); tasks whose tests rely
    # on a pytest.ini in the workspace or an ini-set option break.
    "pin-pytest": {"PYTEST_ADDOPTS": "-c /dev/null --rootdir=/tests --confcutdir=/tests "
                                     "-p no:cacheprovider"},
    # no plugin is loaded through an installed entry point (B8); tasks whose tests need a
    # plugin (pytest-timeout, pytest-json-report, ...) must then load it with -p.
    "no-plugin-autoload": {"PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"},
}


def image_env(config_env: Iterable[str] | None) -> dict[str, str]:
    """An image's ``Config.Env`` list (``KEY=VALUE``) as a mapping."""
    env: dict[str, str] = {}
    for item in config_env or []:
        key, _, value = item.partition("=")
        env[key] = value
    return env


def split_environment(image: Mapping[str, str], task: Mapping[str, str], *,
                      opt_in: Iterable[str] = (), safe_defaults: bool = True) -> dict[str, str]:
    """The environment the split verifier's ``test.sh`` starts with (on top of the image's).
    ``safe_defaults=False`` (a policy's ``unsafe_no_safe_defaults``) leaves out
    :data:`SAFE_DEFAULTS`, as Harbor does.

    Raises:
        ValueError: an unknown opt-in name.
    """
    env = dict(SAFE_DEFAULTS) if safe_defaults else {}
    for name in opt_in:
        if name not in OPT_IN:
            raise ValueError(f"unknown verifier mitigation {name!r}; known: {sorted(OPT_IN)}")
        env.update(OPT_IN[name])
    env["PATH"] = image.get("PATH") or DEFAULT_PATH
    env.update(task)
    return env
