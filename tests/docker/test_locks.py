"""The hash-locked requirements and the one list of Debian packages (no network, no Docker)."""

import re
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[2]
PIN = re.compile(r"^([A-Za-z0-9_.\-]+)==([^\s\\]+)")


def pins(name: str) -> dict[str, tuple[str, list[str]]]:
    """Each locked package: its version and the hashes of the files pip may take."""
    found: dict[str, tuple[str, list[str]]] = {}
    current = None
    for line in (ROOT / name).read_text().splitlines():
        if m := PIN.match(line):
            current = canonicalize_name(m[1])
            found[current] = (m[2], [])
        elif current and (h := re.search(r"--hash=sha256:([0-9a-f]{64})", line)):
            found[current][1].append(h[1])
        elif not line.startswith(" "):
            current = None
    return found


@pytest.fixture(scope="module")
def project() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]


@pytest.mark.parametrize("lock", ["requirements.lock", "requirements-dev.lock"])
def test_every_locked_package_has_hashes(lock):
    locked = pins(lock)
    assert locked
    assert [name for name, (_, hashes) in locked.items() if not hashes] == []


@pytest.mark.parametrize(
    ("lock", "extras"), [("requirements.lock", []), ("requirements-dev.lock", ["dev"])]
)
def test_the_lock_satisfies_pyproject(project, lock, extras):
    """A range widened or a dependency added in pyproject.toml without `make lock` fails here."""
    locked = pins(lock)
    declared = list(project["dependencies"])
    for extra in extras:
        declared += project["optional-dependencies"][extra]
    for text in declared:
        req = Requirement(text)
        if req.marker and not req.marker.evaluate():
            continue
        name = canonicalize_name(req.name)
        assert name in locked, f"{req.name} is not in {lock}"
        assert req.specifier.contains(locked[name][0], prereleases=True), (text, locked[name][0])


def test_the_image_runs_the_versions_ci_tests():
    runtime, dev = pins("requirements.lock"), pins("requirements-dev.lock")
    assert {name: dev[name][0] for name in runtime} == {n: v for n, (v, _) in runtime.items()}


def test_one_list_of_debian_packages():
    rows = [
        line.split("#")[0].split()
        for line in (ROOT / "docker" / "debian-packages.txt").read_text().splitlines()
        if line.split("#")[0].strip()
    ]
    assert rows and all(len(row) == 2 and row[1] in {"image", "ci"} for row in rows)
    # the share cards' Chinese is needed wherever cards are drawn, so in the image
    assert ["fonts-noto-cjk", "image"] in rows
    assert "debian-packages.txt" in (ROOT / ".ci" / "run").read_text()
    assert "debian-packages.txt" in (ROOT / "docker" / "Dockerfile").read_text()
