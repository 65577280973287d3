#!/usr/bin/env python3
"""Every screenshot the README shows is made by scripts/screenshots.sh.

The README names images as resources/screenshots/NAME.png; the script makes one with each
`shot NAME ...` line. A README image no line makes would go stale the next time the gallery is
regenerated, so it fails here, named. Usage: check_screenshots.py ROOT (the repository, or a fixture
folder with the same two files).
"""
import pathlib
import re
import sys


def main() -> int:
    if len(sys.argv) != 2:
        print("usage: check_screenshots.py ROOT", file=sys.stderr)
        return 2
    root = pathlib.Path(sys.argv[1])
    readme = root / "README.md"
    script = root / "scripts" / "screenshots.sh"
    for path in (readme, script):
        if not path.is_file():
            print(f"check_screenshots: {path} is missing", file=sys.stderr)
            return 1
    shown = set(re.findall(r"resources/screenshots/([\w.-]+)\.png", readme.read_text()))
    made = set(re.findall(r"^\s*shot\s+\"?([\w.$-]+)\"?", script.read_text(), re.MULTILINE))
    # Lines in loops make NAME from the loop's variable: "compare-$view" over its words.
    made |= expand_loops(script.read_text())
    missing = sorted(name for name in shown if name not in made)
    for name in missing:
        print(f"README.md shows resources/screenshots/{name}.png but scripts/screenshots.sh "
              f"has no 'shot {name}' line")
    if missing:
        return 1
    print(f"all {len(shown)} README screenshots are made by scripts/screenshots.sh")
    return 0


def expand_loops(text: str) -> set:
    """Names of `shot` lines inside `for VAR in WORDS; do ... done` loops, one per word."""
    names = set()
    for var, words, body in re.findall(r"^for (\w+) in ([^;\n]+);\s*do\n(.*?)^done",
                                       text, re.MULTILINE | re.DOTALL):
        for template in re.findall(r"^\s*shot\s+\"?([\w.${}-]+)\"?", body, re.MULTILINE):
            for word in words.split():
                names.add(template.replace("${" + var + "}", word).replace("$" + var, word))
    return names


if __name__ == "__main__":
    sys.exit(main())
