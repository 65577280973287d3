"""Fixtures: a report captured from the compat example program pva_reader/writer.cpp (built by
CMake, path in TILESCOPE_TEST_WRITER) and the C++ pva face's figures of it (report_figures)."""
import os
import subprocess
import tempfile

import pytest


@pytest.fixture(scope="session")
def scratch():
    base = os.environ.get("TILESCOPE_TEST_TMP")
    if base:
        os.makedirs(base, exist_ok=True)
    return tempfile.mkdtemp(prefix="pytest-", dir=base)


@pytest.fixture(scope="session")
def profile(scratch):
    writer = os.environ["TILESCOPE_TEST_WRITER"]
    env = dict(os.environ)
    env["POPLAR_ENGINE_OPTIONS"] = '{"autoReport.all":"true","autoReport.directory":"./report"}'
    out = subprocess.run([writer], cwd=scratch, env=env, check=True, capture_output=True, text=True)
    assert out.stdout.strip() == "x: 1 16 81 256 625 1296 2401 4096"
    path = os.path.join(scratch, "report", "profile.pop")
    assert os.path.isfile(path)
    return path


@pytest.fixture(scope="session")
def cpp_figures(profile):
    """What the C++ reader says: {"tiles": n, "memory": {tile: bytes}, "steps": [(run, i, cycles,
    program)]}."""
    out = subprocess.run([os.environ["TILESCOPE_TEST_FIGURES"], profile], check=True,
                         capture_output=True, text=True).stdout
    figures = {"memory": {}, "steps": []}
    for line in out.splitlines():
        words = line.split(" ")
        if words[0] == "tiles" or words[0] == "computeSets":
            figures[words[0]] = int(words[1])
        elif words[0] == "memory":
            figures["memory"][int(words[1])] = int(words[2])
        elif words[0] == "step":
            figures["steps"].append((int(words[1]), int(words[2]), int(words[3]), words[4]))
    return figures
