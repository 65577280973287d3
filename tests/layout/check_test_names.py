#!/usr/bin/env python3
"""Catch2 test names that ctest can run one by one.

catch_discover_tests registers each TEST_CASE as `binary "<name>"`, escaping commas but not
semicolons: CMake cuts a name at its ';', Catch then matches no test case, prints "No tests ran"
and the ctest entry passes without running anything. Tag brackets and a leading '~' would change
what the name selects as well. Usage: check_test_names.py <source root>.
"""
import pathlib
import re
import sys

# The first string literal of a TEST_CASE or SCENARIO: the test case's name.
NAME = re.compile(r'\b(?:TEST_CASE|SCENARIO)\s*\(\s*"((?:[^"\\]|\\.)*)"')


def problems(root: pathlib.Path):
    for path in sorted((root / "tests").rglob("*.cpp")):
        text = path.read_text(encoding="utf-8", errors="replace")
        for match in NAME.finditer(text):
            name = match.group(1)
            line = text.count("\n", 0, match.start()) + 1
            if ";" in name:
                yield f"{path.relative_to(root)}:{line}: ';' in test name \"{name}\""
            if "[" in name or "]" in name or name.startswith("~"):
                yield f"{path.relative_to(root)}:{line}: test spec character in \"{name}\""


def main() -> int:
    if len(sys.argv) != 2 or not pathlib.Path(sys.argv[1], "tests").is_dir():
        print("usage: check_test_names.py <source root with a tests/ folder>", file=sys.stderr)
        return 2
    found = list(problems(pathlib.Path(sys.argv[1])))
    for p in found:
        print(p)
    if found:
        print(f"{len(found)} Catch test names ctest cannot select")
        return 1
    print("every Catch test name can be selected by ctest")
    return 0


if __name__ == "__main__":
    sys.exit(main())
