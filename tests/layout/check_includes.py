#!/usr/bin/env python3
"""Checks that #include lines in app/gui and reportfmt/src follow the folder layers (issue 19).

Each root has one include folder. A file includes a header of its own folder by bare name and a
header of another folder by its path from the root ("core/Format.hpp"), and only from a folder its
own folder may include (LAYERS below: each folder names the folders under it). A file directly in
the root, or in a folder LAYERS does not name, fails: new folders are declared here, and new files
are placed in a folder. The table itself must have no cycle.

Usage: check_includes.py [TREE]   (TREE defaults to the repository holding this script)
Exit 0 when every include points down; 1 with one line per offending include otherwise.
"""
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
        # sweep/ opens two variants in the compare window.
        'sweep': ['core', 'tables', 'canvas', 'compare'],
        'shell': ['core', 'tables', 'canvas', 'compare', 'system', 'remote', 'sweep'] + VIEWS,
        'bench': ['core', 'tables', 'canvas', 'compare', 'system', 'remote', 'shell',
                  'sweep'] + VIEWS,
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
}

INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)
SOURCES = ('.cpp', '.hpp', '.h', '.cc')


def table_cycle(layers):
    """A folder on a cycle of the table, or None."""
    state = {}

    def visit(folder):
        state[folder] = 'open'
        for below in layers.get(folder, []):
            if state.get(below) == 'open' or (below not in state and visit(below)):
                return True
        state[folder] = 'done'
        return False

    for folder in layers:
        if folder not in state and visit(folder):
            return folder
    return None


def check_root(tree, root, layers):
    problems = []
    root_dir = os.path.join(tree, root)
    if not os.path.isdir(root_dir):
        return problems
    for dirpath, _, filenames in os.walk(root_dir):
        for name in sorted(filenames):
            if not name.endswith(SOURCES):
                continue
            path = os.path.join(dirpath, name)
            rel = os.path.relpath(path, tree)
            folder = os.path.relpath(dirpath, root_dir)
            if folder == '.' or '/' in folder:
                problems.append('%s: not in a folder of %s (place it in one of: %s)'
                                % (rel, root, ', '.join(sorted(layers))))
                continue
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
                    others = [f for f in layers if os.path.isfile(os.path.join(root_dir, f, inc))]
                    if others:
                        problems.append('%s names a header of %s/ by bare name; write "%s/%s"'
                                        % (where, others[0], others[0], inc))
                    continue
                target = os.path.join(root_dir, inc)
                if not os.path.isfile(target):
                    continue  # not a header of this root (a public or third-party header)
                other = inc.split('/')[0]
                if other == folder:
                    problems.append('%s is in the same folder: include it by bare name' % where)
                elif other not in layers[folder]:
                    problems.append('%s: %s/ may not include %s/ (it may include: %s)'
                                    % (where, folder, other, ', '.join(layers[folder]) or 'nothing'))
    return problems


def includes_with_lines(text):
    for m in INCLUDE.finditer(text):
        yield text.count('\n', 0, m.start()) + 1, m.group(1)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    tree = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.dirname(here))
    problems = []
    for root, layers in LAYERS.items():
        cycle = table_cycle(layers)
        if cycle:
            problems.append('tests/layout/check_includes.py: the layers of %s have a cycle through %s'
                            % (root, cycle))
        problems += check_root(tree, root, layers)
    for problem in problems:
        print(problem)
    if problems:
        print('%d include(s) against the layout; see the folder READMEs' % len(problems))
        return 1
    print('includes point down in %s' % ', '.join(LAYERS))
    return 0


if __name__ == '__main__':
    sys.exit(main())
