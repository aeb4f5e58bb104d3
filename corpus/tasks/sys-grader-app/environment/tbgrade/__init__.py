"""tbgrade: small grading helpers shared by the benchmark's Python tasks (baked into the image).

Tests use ``load_submission`` to import the agent's module by path and ``assert_close`` /
``assert_all_close`` to compare floating-point answers.
"""

import importlib.util
import math
import sys

__all__ = ["load_submission", "assert_close", "assert_all_close"]


def load_submission(path, name="submission"):
    """Import the module at ``path`` (never through sys.path) and return it."""
    sys.dont_write_bytecode = True
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise AssertionError(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def assert_close(actual, expected, *, rel=1e-9, abs_tol=1e-12, what="value"):
    """Fail unless ``actual`` is a real number within tolerance of ``expected``."""
    if isinstance(actual, bool) or not isinstance(actual, (int, float)):
        raise AssertionError(f"{what}: expected a number, got {type(actual).__name__}")
    if not math.isclose(actual, expected, rel_tol=rel, abs_tol=abs_tol):
        raise AssertionError(f"{what}: {actual!r} != {expected!r}")


def assert_all_close(pairs, **kw):
    for i, (actual, expected) in enumerate(pairs):
        assert_close(actual, expected, what=f"case {i}", **kw)
