"""Speed of the pva Python face: iterating every executed step of a report (reading .cycles and
.cyclesFrom) and every event of a host trace (walking the tree, reading .label and .duration),
in items per second. Prints one JSON object; exits 1 when a rate is below --min-rate.

    python3 bench_python_faces.py profile.pop host.pvti [--min-rate 1000000]
"""
import argparse
import json
import sys
import time

import pva


def bench_steps(path):
    start = time.perf_counter()
    report = pva.openReport(path)
    count = 0
    total = 0
    for run in report.execution.runs:
        for step in run.steps:
            total += step.cycles + step.cyclesFrom
            count += 1
    return count, time.perf_counter() - start


def bench_events(path):
    start = time.perf_counter()
    trace = pva.openTrace(path)
    opened = time.perf_counter() - start
    count = 0
    total = 0
    stack = []
    for process in trace.processes:
        for thread in process.threads:
            stack.extend(thread.events)
            while stack:
                event = stack.pop()
                total += event.duration
                event.label
                count += 1
                children = event.children()
                if children:
                    stack.extend(children)
    return count, time.perf_counter() - start, opened


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("profile")
    parser.add_argument("trace")
    parser.add_argument("--min-rate", type=float, default=0)
    args = parser.parse_args()
    steps, steps_s = bench_steps(args.profile)
    events, events_s, open_s = bench_events(args.trace)
    result = {
        "steps": steps, "steps_seconds": round(steps_s, 3),
        "steps_per_second": round(steps / steps_s),
        "events": events, "events_seconds": round(events_s, 3),
        "events_open_seconds": round(open_s, 3),
        "events_per_second": round(events / events_s),
    }
    print(json.dumps(result))
    slow = [k for k in ("steps_per_second", "events_per_second") if result[k] < args.min_rate]
    if slow:
        print(f"below {args.min_rate:.0f} items/s: {', '.join(slow)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
