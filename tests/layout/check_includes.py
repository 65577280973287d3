#!/usr/bin/env python3
"""Checks that #include lines in app/gui, reportfmt/src, simcore/src and python/src follow the
folder layers (issues 19 and 30).

Each root has one include folder. A file includes a header of its own folder by bare name and a
header of another folder by its path from the root ("core/Format.hpp"), and only from a folder its
own folder may include (LAYERS below: each folder names the folders under it). A file in a folder
LAYERS does not name fails: new folders are declared here. A file directly in the root fails too,
unless the root's table has a '.' entry (what the root's own files may include), and then at most
ROOT_FILES[root] files may sit there; no folder may include a header of the root itself. Neither
the table nor the includes found may form a cycle of folders.

Usage: check_includes.py [--layers TABLE.json] [TREE]
  TREE defaults to the repository holding this script; TABLE.json ({"root": {"folder": [...]}})
  replaces LAYERS (the fixtures use it to prove that a cycle in the table fails).
Exit 0 when every include points down; 1 with one line per offending include otherwise.
"""
import json
import os
import re
import sys

VIEWS = ['summary', 'insights', 'memory', 'liveness', 'programs', 'operations', 'execution']

# folder -> folders it may include (besides itself). Keep in step with the folder READMEs.
LAYERS = {
    'app/gui': {
        'core': [],
        'canvas': [],
        'tables': ['core'],
        **{view: ['core', 'tables', 'canvas'] for view in VIEWS},
        'system': ['core', 'tables', 'canvas'],
        'remote': ['core', 'tables', 'canvas'],
        # compare/ reuses the memory view's tile-order widget, and nothing else of a view.
        'compare': ['core', 'tables', 'canvas', 'memory'],
        'shell': ['core', 'tables', 'canvas', 'compare', 'system', 'remote'] + VIEWS,
        'bench': ['core', 'tables', 'canvas', 'compare', 'system', 'remote', 'shell'] + VIEWS,
    },
    'reportfmt/src': {
        'sqlite': [],
        'types': [],
        'lod': ['sqlite'],
        'remote': ['sqlite'],
        'schema': ['sqlite', 'types', 'lod', 'remote'],
        'write': ['sqlite', 'types', 'lod', 'schema'],
        'read': ['sqlite', 'types', 'lod', 'schema'],
        'compare': ['sqlite', 'read'],
        'chrome': ['sqlite', 'read', 'write'],
        'pva': ['read'],
        'synth': ['write'],
    },
    # The simulator by stage, in the order a program goes through them (simcore/README.md).
    # Only src/'s private headers are checked; the native headers under include/tilescope/sim
    # are the stages' public faces.
    'simcore/src': {
        'device': [],
        'graph': ['device'],
        'codelets': ['device', 'graph'],
        'compile': ['device', 'graph', 'codelets'],
        'serialize': ['device', 'graph', 'codelets', 'compile'],
        'execute': ['device', 'graph', 'codelets', 'compile'],
        'profile': ['device', 'graph', 'compile', 'execute'],
        # The Engine and compileGraph take a program through every stage.
        '.': ['device', 'graph', 'codelets', 'compile', 'serialize', 'execute', 'profile'],
    },
    # The Python faces: the pva module and the libpvti module share nothing.
    'python/src': {
        'pva': [],
        'libpvti': [],
    },
}

# Roots whose table has a '.' entry: how many source files may sit directly in the root.
ROOT_FILES = {'simcore/src': 12}

INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)
SOURCES = ('.cpp', '.hpp', '.h', '.cc')


def find_cycle(edges):
    """A cycle of the folder graph `edges` (folder -> folders) as a list of folders, or None."""
    state = {}
    path = []

    def visit(folder):
        state[folder] = 'open'
        path.append(folder)
        for below in sorted(edges.get(folder, [])):
            if state.get(below) == 'open':
                return path[path.index(below):] + [below]
            if below not in state:
                found = visit(below)
                if found:
                    return found
        state[folder] = 'done'
        path.pop()
        return None

    for folder in sorted(edges):
        if folder not in state:
            found = visit(folder)
            if found:
                return found
    return None


def folder_name(root, folder):
    return '%s itself' % root if folder == '.' else folder + '/'


def check_root(tree, root, layers):
    problems = []
    root_dir = os.path.join(tree, root)
    if not os.path.isdir(root_dir):
        return problems
    folders = sorted(f for f in layers if f != '.')
    used = {}  # folder -> folders its includes name
    in_root = 0
    for dirpath, _, filenames in sorted(os.walk(root_dir)):
        for name in sorted(filenames):
            if not name.endswith(SOURCES):
                continue
            path = os.path.join(dirpath, name)
            rel = os.path.relpath(path, tree)
            folder = os.path.relpath(dirpath, root_dir)
            if (folder == '.' and '.' not in layers) or '/' in folder:
                problems.append('%s: not in a folder of %s (place it in one of: %s)'
                                % (rel, root, ', '.join(folders)))
                continue
            if folder == '.':
                in_root += 1
            if folder not in layers:
                problems.append('%s: folder %s/%s is not declared in tests/layout/check_includes.py'
                                % (rel, root, folder))
                continue
            with open(path, encoding='utf-8', errors='replace') as fh:
                text = fh.read()
            for line_no, inc in includes_with_lines(text):
                where = '%s:%d: "%s"' % (rel, line_no, inc)
                if '/' not in inc:
                    if os.path.isfile(os.path.join(dirpath, inc)):
                        continue
                    if folder != '.' and os.path.isfile(os.path.join(root_dir, inc)):
                        other = '.'  # a header of the root itself, through the include path
                    else:
                        others = [f for f in folders if os.path.isfile(os.path.join(root_dir, f, inc))]
                        if others:
                            problems.append('%s names a header of %s/ by bare name; write "%s/%s"'
                                            % (where, others[0], others[0], inc))
                        continue
                else:
                    if not os.path.isfile(os.path.join(root_dir, inc)):
                        continue  # not a header of this root (a public or third-party header)
                    other = inc.split('/')[0]
                if other == folder:
                    problems.append('%s is in the same folder: include it by bare name' % where)
                    continue
                used.setdefault(folder, set()).add(other)
                if other not in layers[folder]:
                    problems.append('%s: %s may not include %s (it may include: %s)'
                                    % (where, folder_name(root, folder), folder_name(root, other),
                                       ', '.join(layers[folder]) or 'nothing'))
    if in_root > ROOT_FILES.get(root, 0):
        problems.append('%s: %d source files directly in the root, at most %d: place them in '
                        'its folders' % (root, in_root, ROOT_FILES.get(root, 0)))
    cycle = find_cycle(used)
    if cycle:
        problems.append('%s: the includes form a folder cycle: %s' % (root, ' -> '.join(cycle)))
    return problems


def includes_with_lines(text):
    for m in INCLUDE.finditer(text):
        yield text.count('\n', 0, m.start()) + 1, m.group(1)


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    table = LAYERS
    if len(argv) > 1 and argv[0] == '--layers':
        try:
            with open(argv[1], encoding='utf-8') as fh:
                table = json.load(fh)
        except (OSError, ValueError) as e:
            print('check_includes.py: cannot read the layer table %s: %s' % (argv[1], e))
            return 2
        argv = argv[2:]
    if len(argv) > 1 or (argv and argv[0].startswith('-')):
        print(__doc__.split('Usage: ')[1].splitlines()[0])
        return 2
    tree = argv[0] if argv else os.path.dirname(os.path.dirname(here))
    problems = []
    for root, layers in table.items():
        cycle = find_cycle(layers)
        if cycle:
            problems.append('the layer table of %s has a cycle: %s' % (root, ' -> '.join(cycle)))
        problems += check_root(tree, root, layers)
    for problem in problems:
        print(problem)
    if problems:
        print('%d include(s) against the layout; see the folder READMEs' % len(problems))
        return 1
    print('includes point down in %s' % ', '.join(table))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
