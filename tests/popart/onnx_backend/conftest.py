"""Records each node test's outcome (passed / failed / excluded, the first line of a failure) by
op group, prints the counts at the end of the run, and writes them as JSON to the file named by
TILESCOPE_ONNX_RESULTS (summarise.py adds up the files of several runs)."""
import json
import os
import re

import op_groups

_results = {}


def _test_name(nodeid):
    match = re.search(r"::(test_\w+)_cpu$", nodeid)
    return match.group(1) if match else None


def _first_line(report):
    text = str(report.longrepr) if report.longrepr is not None else ""
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("E "):
            return line[2:].strip()[:300]
    lines = [l.strip() for l in text.splitlines() if l.strip()]
    return lines[-1][:300] if lines else ""


def pytest_runtest_logreport(report):
    test = _test_name(report.nodeid)
    if test is None:
        return
    if report.when == "call" or (report.when == "setup" and not report.passed):
        if report.skipped:
            reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else ""
            outcome = {"outcome": "excluded", "reason": reason.replace("Skipped: ", "")}
        elif report.passed:
            outcome = {"outcome": "passed"}
        else:
            outcome = {"outcome": "failed", "error": _first_line(report)}
        outcome["group"] = op_groups.test_group(test)
        outcome["op"] = op_groups.test_op(test)
        _results[test] = outcome


def counts_by_group(results):
    table = {}
    for outcome in results.values():
        row = table.setdefault(outcome["group"], {"passed": 0, "failed": 0, "excluded": 0})
        row[outcome["outcome"]] += 1
    return table


def pytest_terminal_summary(terminalreporter):
    table = counts_by_group(_results)
    terminalreporter.write_line("ONNX node tests by op group (passed / failed / excluded):")
    for group in sorted(table):
        row = table[group]
        terminalreporter.write_line(
            f"  {group:14} {row['passed']:4} {row['failed']:4} {row['excluded']:4}")
    path = os.environ.get("TILESCOPE_ONNX_RESULTS")
    if path:
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        with open(path, "w") as out:
            json.dump(_results, out, indent=1, sort_keys=True)
