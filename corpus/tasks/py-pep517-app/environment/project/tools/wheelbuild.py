"""A minimal in-tree PEP 517 build backend (standard library only): builds a pure-Python
wheel from src/<name>/ with the metadata and entry points of pyproject.toml's [project]."""

import base64
import hashlib
import os
import tomllib
import zipfile


def _project():
    with open("pyproject.toml", "rb") as f:
        return tomllib.load(f)["project"]


def _record_line(path, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{path},sha256={digest},{len(data)}"


def get_requires_for_build_wheel(config_settings=None):
    return []


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    project = _project()
    name, version = project["name"], project["version"]
    dist = f"{name.replace('-', '_')}-{version}"
    files = {}
    src = os.path.join("src", name.replace("-", "_"))
    for root, _, names in os.walk(src):
        for filename in sorted(names):
            if filename.endswith(".py"):
                path = os.path.join(root, filename)
                with open(path, "rb") as f:
                    files[os.path.relpath(path, "src")] = f.read()
    files[f"{dist}.dist-info/METADATA"] = (
        f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n"
        f"Summary: {project.get('description', '')}\n").encode()
    files[f"{dist}.dist-info/WHEEL"] = (
        b"Wheel-Version: 1.0\nGenerator: wheelbuild\nRoot-Is-Purelib: true\nTag: py3-none-any\n")
    groups = project.get("entry-points", {})
    if groups:
        text = "".join(f"[{group}]\n" + "".join(f"{k} = {v}\n" for k, v in eps.items()) + "\n"
                       for group, eps in groups.items())
        files[f"{dist}.dist-info/entry_points.txt"] = text.encode()
    record = [_record_line(p, d) for p, d in files.items()] + [f"{dist}.dist-info/RECORD,,"]
    files[f"{dist}.dist-info/RECORD"] = ("\n".join(record) + "\n").encode()
    wheel_name = f"{dist}-py3-none-any.whl"
    os.makedirs(wheel_directory, exist_ok=True)
    with zipfile.ZipFile(os.path.join(wheel_directory, wheel_name), "w") as whl:
        for path, data in files.items():
            whl.writestr(path, data)
    return wheel_name
