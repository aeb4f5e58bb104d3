"""Install the project in the current directory the way `pip install .` does, with the standard
library only: read [build-system] from pyproject.toml, import the build backend (with
backend-path first on sys.path), let it build a wheel, and unpack the wheel into
site-packages (purelib)."""

import importlib
import os
import sys
import sysconfig
import tempfile
import tomllib
import zipfile


def main():
    with open("pyproject.toml", "rb") as f:
        build_system = tomllib.load(f)["build-system"]
    sys.path[:0] = [os.path.abspath(p) for p in build_system.get("backend-path", [])]
    module_name, _, attr = build_system["build-backend"].partition(":")
    backend = importlib.import_module(module_name)
    if attr:
        backend = getattr(backend, attr)
    wheel_dir = tempfile.mkdtemp(prefix="wheel-")
    wheel = backend.build_wheel(wheel_dir)
    site = sysconfig.get_path("purelib")
    with zipfile.ZipFile(os.path.join(wheel_dir, wheel)) as whl:
        whl.extractall(site)
    print(f"installed {wheel} into {site}")


if __name__ == "__main__":
    main()
