"""Runs the ONNX node tests of one op group (pytest over test_onnx_node.py), writes their results
to RESULTS_DIR/GROUP.json and fails when fewer than MIN_PASSED of them pass: a test of the group
failing is recorded (summarise.py lists it), a drop below the group's measured floor fails.

usage: run_group.py GROUP RESULTS_DIR MIN_PASSED [pytest args...]
"""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    group, results_dir, min_passed = sys.argv[1], sys.argv[2], sys.argv[3]
    results = os.path.join(results_dir, group.replace(" ", "_") + ".json")
    if os.path.exists(results):
        os.remove(results)
    env = dict(os.environ, TILESCOPE_ONNX_GROUPS=group, TILESCOPE_ONNX_RESULTS=results)
    subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-rN",
                    os.path.join(HERE, "test_onnx_node.py")] + sys.argv[4:], env=env, cwd=HERE)
    if not os.path.isfile(results):
        sys.exit(f"run_group.py: pytest wrote no results for group '{group}' (it crashed?)")
    return subprocess.run([sys.executable, os.path.join(HERE, "summarise.py"), "--failures",
                           "--min-passed", min_passed, results]).returncode


if __name__ == "__main__":
    sys.exit(main())
