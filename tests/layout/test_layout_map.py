"""scripts/layout_map.py on a small git repository laid out the old way (issue 30): files move,
includes and CMake source lists follow, a second run changes nothing, bad maps are refused."""
import os
import subprocess
import sys

import pytest

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'scripts',
                      'layout_map.py')

OLD_TREE = {
    'lib/src/Engine.cpp': '#include "Plans.hpp"\n#include "Format.hpp"\n#include <vector>\n',
    'lib/src/Plans.hpp': '#pragma once\n#include "Format.hpp"\n',
    'lib/src/Plans.cpp': '#include "Plans.hpp"\n',
    'lib/src/Format.hpp': '#pragma once\n',
    'lib/CMakeLists.txt': 'add_library(lib\n  src/Engine.cpp\n  src/Plans.cpp)\n',
    'tests/CMakeLists.txt': 'add_executable(t ${PROJECT_SOURCE_DIR}/lib/src/Plans.cpp t.cpp)\n',
}

MAP = """# a comment
lib/src/Plans.hpp -> lib/src/execute/Plans.hpp
lib/src/Plans.cpp -> lib/src/execute/Plans.cpp   # trailing comment
lib/src/Format.hpp -> lib/src/profile/Format.hpp
"""


def git(repo, *args):
    subprocess.run(['git', '-c', 'user.name=t', '-c', 'user.email=t@t', *args], cwd=repo,
                   check=True, capture_output=True)


@pytest.fixture
def repo(tmp_path):
    for rel, text in OLD_TREE.items():
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    (tmp_path / 'layout.map').write_text(MAP)
    git(tmp_path, 'init', '-q')
    git(tmp_path, 'add', '-A')
    git(tmp_path, 'commit', '-qm', 'old layout')
    return tmp_path


def run(repo, map_name='layout.map'):
    # --no-format: the test checks the script's own rewriting, not clang-format's.
    return subprocess.run([sys.executable, SCRIPT, '--no-format', str(repo / map_name), str(repo)],
                          capture_output=True, text=True)


def test_moves_files_and_rewrites_what_names_them(repo):
    r = run(repo)
    assert r.returncode == 0, r.stderr
    assert not (repo / 'lib/src/Plans.hpp').exists()
    assert (repo / 'lib/src/execute/Plans.cpp').read_text() == '#include "Plans.hpp"\n'
    assert (repo / 'lib/src/execute/Plans.hpp').read_text() == \
        '#pragma once\n#include "profile/Format.hpp"\n'
    assert (repo / 'lib/src/Engine.cpp').read_text() == \
        '#include "execute/Plans.hpp"\n#include "profile/Format.hpp"\n#include <vector>\n'
    assert (repo / 'lib/CMakeLists.txt').read_text() == \
        'add_library(lib\n  src/Engine.cpp\n  src/execute/Plans.cpp)\n'
    assert (repo / 'tests/CMakeLists.txt').read_text() == \
        'add_executable(t ${PROJECT_SOURCE_DIR}/lib/src/execute/Plans.cpp t.cpp)\n'
    status = subprocess.run(['git', 'status', '--porcelain'], cwd=repo, capture_output=True,
                            text=True).stdout
    assert 'R  lib/src/Plans.cpp -> lib/src/execute/Plans.cpp' in status  # moved with git mv


def test_a_second_run_changes_nothing(repo):
    assert run(repo).returncode == 0
    before = {p: p.read_text() for p in repo.rglob('*') if p.is_file() and '.git' not in p.parts}
    r = run(repo)
    assert r.returncode == 0 and r.stdout == ''
    after = {p: p.read_text() for p in repo.rglob('*') if p.is_file() and '.git' not in p.parts}
    assert after == before


def test_a_file_brought_back_to_its_old_place_moves_again(repo):
    assert run(repo).returncode == 0
    # A branch written before the move adds a file at the old place, spelled the old way.
    (repo / 'lib/src/Extra.cpp').write_text('#include "Plans.hpp"\n')
    with open(repo / 'layout.map', 'a') as fh:
        fh.write('lib/src/Extra.cpp -> lib/src/profile/Extra.cpp\n')
    git(repo, 'add', '-A')
    assert run(repo).returncode == 0
    assert (repo / 'lib/src/profile/Extra.cpp').read_text() == '#include "execute/Plans.hpp"\n'


def test_a_file_at_both_places_is_refused_before_anything_moves(repo):
    (repo / 'lib/src/profile').mkdir(parents=True)
    (repo / 'lib/src/profile/Format.hpp').write_text('#pragma once\n')
    r = run(repo)
    assert r.returncode == 1
    assert 'lib/src/Format.hpp and lib/src/profile/Format.hpp both exist' in r.stderr
    assert (repo / 'lib/src/Plans.hpp').exists()  # nothing moved


@pytest.mark.parametrize('line', ['lib/src/A.cpp lib/src/x/A.cpp', 'lib/src/A.cpp -> other/A.cpp',
                                  'lib/src/A.cpp -> '])
def test_a_malformed_map_is_refused_naming_the_line(repo, line):
    (repo / 'bad.map').write_text('# ok\n' + line + '\n')
    r = run(repo, 'bad.map')
    assert r.returncode == 1
    assert 'bad.map:2:' in r.stderr
