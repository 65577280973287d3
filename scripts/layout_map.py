#!/usr/bin/env python3
"""Applies a layout map: moves files into folders and rewrites what names them.

A map has one move a line, "old/path -> new/path" (from the repository root; '#' starts a comment).
The folder of the old path is the layout root (simcore/src) and the new path is under it
(simcore/src/compile/CostModel.cpp). For every line this script

- runs `git mv old new` when the file is still at its old place (a branch merged after an earlier
  run may bring files back to old places);
- rewrites #include lines naming a moved header: inside the root a header of the same folder is
  included by bare name, one of another folder by its path from the root ("execute/Plan.hpp");
  outside the root, an include spelled as the old root-relative path becomes the new one;
- rewrites source lists in every CMakeLists.txt (paths relative to that file's folder);
- runs clang-format on the sources whose includes it rewrote (the include blocks stay sorted).

Running it twice changes nothing the second time. Exit 1 (and no moves) when the map is malformed
or a file is at both its old and its new place.

Usage: layout_map.py [--no-format] MAP [TREE]
  TREE: the repository root, default: the one holding MAP; --no-format: leave clang-format out
"""
import os
import re
import shutil
import subprocess
import sys

SOURCES = ('.cpp', '.hpp', '.h', '.cc')
HEADERS = ('.hpp', '.h')
INCLUDE = re.compile(r'^(\s*#\s*include\s*")([^"]+)(")', re.M)
SKIP_DIRS = {'.git', 'build'}  # build trees hold generated copies, never sources


def read_map(path):
    moves = []
    with open(path, encoding='utf-8') as fh:
        for line_no, line in enumerate(fh, 1):
            text = line.split('#', 1)[0].strip()
            if not text:
                continue
            parts = [p.strip() for p in text.split('->')]
            if len(parts) != 2 or not all(parts) or any(' ' in p for p in parts):
                raise ValueError('%s:%d: expected "old/path -> new/path", got "%s"'
                                 % (path, line_no, line.rstrip('\n')))
            old, new = (os.path.normpath(p) for p in parts)
            root = os.path.dirname(old)
            if not new.startswith(root + '/') or os.path.isabs(old):
                raise ValueError('%s:%d: %s is not under the folder of %s'
                                 % (path, line_no, new, old))
            moves.append((old, new, root))
    return moves


def source_files(tree, top):
    """Every source file under `top` (repository-relative), skipping build trees."""
    base = os.path.join(tree, top)
    for dirpath, dirnames, filenames in os.walk(base):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS and not d.startswith('build'))
        for name in sorted(filenames):
            if name.endswith(SOURCES):
                yield os.path.relpath(os.path.join(dirpath, name), tree)


def move_files(tree, moves):
    for old, new, _ in moves:
        if os.path.exists(os.path.join(tree, old)) and os.path.exists(os.path.join(tree, new)):
            raise ValueError('%s and %s both exist: merge them by hand, then re-run' % (old, new))
    for old, new, _ in moves:
        if os.path.exists(os.path.join(tree, old)):
            os.makedirs(os.path.dirname(os.path.join(tree, new)), exist_ok=True)
            subprocess.run(['git', 'mv', old, new], cwd=tree, check=True)
            print('moved %s -> %s' % (old, new))


def rewrite(path, transform):
    with open(path, encoding='utf-8') as fh:
        text = fh.read()
    changed = transform(text)
    if changed != text:
        with open(path, 'w', encoding='utf-8') as fh:
            fh.write(changed)
        return True
    return False


def rewrite_includes(tree, moves):
    """Include spellings of moved headers, per root: header name -> folder in the root."""
    roots = {}
    for old, new, root in moves:
        if new.endswith(HEADERS):
            roots.setdefault(root, {})[os.path.basename(new)] = (
                os.path.relpath(os.path.dirname(new), root), os.path.relpath(old, root))
    changed = []
    for root, headers in roots.items():
        folders = {folder for folder, _ in headers.values()}
        # Inside the root: bare name within a folder, root-relative path across folders.
        for rel in source_files(tree, root):
            here = os.path.relpath(os.path.dirname(rel), root)

            def fix_inside(m, here=here, rel=rel):
                spelled = m.group(2)
                folder, name = os.path.split(spelled)
                if name not in headers or (folder and folder not in folders):
                    return m.group(0)
                if not folder and os.path.exists(os.path.join(tree, os.path.dirname(rel), name)) \
                        and headers[name][0] != here:
                    return m.group(0)  # a file of the same name beside the includer wins
                target = headers[name][0]
                wanted = name if target == here else '%s/%s' % (target, name)
                return m.group(1) + wanted + m.group(3)

            if rewrite(os.path.join(tree, rel), lambda t, f=fix_inside: INCLUDE.sub(f, t)):
                changed.append(rel)
        # Outside the root (through an include path ending at the root): old spelling -> new.
        old_spellings = {old_rel: '%s/%s' % (folder, name) if folder != '.' else name
                         for name, (folder, old_rel) in headers.items()}
        for top in sorted({p.split('/')[0] for p in os.listdir(tree) if not p.startswith('.')}):
            if not os.path.isdir(os.path.join(tree, top)) or top in SKIP_DIRS \
                    or top.startswith('build'):
                continue
            for rel in source_files(tree, top):
                if rel.startswith(root + '/'):
                    continue

                def fix_outside(m, rel=rel):
                    spelled = m.group(2)
                    if spelled not in old_spellings or os.path.exists(
                            os.path.join(tree, os.path.dirname(rel), spelled)):
                        return m.group(0)
                    return m.group(1) + old_spellings[spelled] + m.group(3)

                if rewrite(os.path.join(tree, rel), lambda t, f=fix_outside: INCLUDE.sub(f, t)):
                    changed.append(rel)
    return changed


def cmake_files(tree):
    for dirpath, dirnames, filenames in os.walk(tree):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS and not d.startswith('build')
                             and not d.startswith('.'))
        if 'CMakeLists.txt' in filenames:
            yield os.path.relpath(os.path.join(dirpath, 'CMakeLists.txt'), tree)


def rewrite_cmake(tree, moves):
    changed = []
    for rel in cmake_files(tree):
        folder = os.path.dirname(rel)
        pairs = []
        for old, new, _ in moves:
            if folder and not old.startswith(folder + '/'):
                continue
            pairs.append((os.path.relpath(old, folder or '.'), os.path.relpath(new, folder or '.')))
        # From the repository root: ${PROJECT_SOURCE_DIR}/old, ${CMAKE_SOURCE_DIR}/old.
        rooted = [(old, new) for old, new, _ in moves]

        def transform(text, pairs=pairs, rooted=rooted):
            for prefix, table in ((r'(?:\$\{CMAKE_CURRENT_SOURCE_DIR\}/)?', pairs),
                                  (r'\$\{(?:PROJECT|CMAKE)_SOURCE_DIR\}/', rooted)):
                for old_rel, new_rel in table:
                    pattern = (r'(^|[\s("\'])(' + prefix + ')' + re.escape(old_rel)
                               + r'(?=[\s)"\']|$)')
                    text = re.sub(pattern, lambda m: m.group(1) + m.group(2) + new_rel, text,
                                  flags=re.M)
            return text

        if rewrite(os.path.join(tree, rel), transform):
            changed.append(rel)
    return changed


def main(argv):
    fmt = '--no-format' not in argv
    argv = [a for a in argv if a != '--no-format']
    if len(argv) not in (2, 3) or any(a.startswith('-') for a in argv[1:]):
        print('\n'.join(__doc__.strip().splitlines()[-2:]), file=sys.stderr)
        return 2
    map_path = os.path.abspath(argv[1])
    tree = os.path.abspath(argv[2]) if len(argv) == 3 else os.path.dirname(
        os.path.dirname(map_path))
    try:
        moves = read_map(map_path)
        move_files(tree, moves)
    except (OSError, ValueError, subprocess.CalledProcessError) as e:
        print('layout_map: %s' % e, file=sys.stderr)
        return 1
    sources = rewrite_includes(tree, moves)
    if fmt and sources and shutil.which('clang-format'):
        # Re-sorts the include blocks the new spellings disturbed (the repository's .clang-format).
        subprocess.run(['clang-format', '-i'] + sources, cwd=tree, check=True)
    for rel in sources + rewrite_cmake(tree, moves):
        print('rewrote %s' % rel)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
