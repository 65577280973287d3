"""Speed of the pva Python face: iterating every executed step of a report (reading .cycles and
.cyclesFrom) and every event of a host trace (walking the tree, reading .label and .duration),
in items per second (wall clock, and per second of process CPU time, which a machine shared with
other sessions disturbs less). For comparison under any load, python_baseline_per_second is the
same loop in the same run over plain Python objects (a list of __slots__ instances with the two
attributes, built before timing): no file, no pva. Prints one JSON object; exits 1 when a rate is
below --min-rate.

    python3 bench_python_faces.py profile.pop host.pvti [--min-rate 1000000]
"""
import argparse
import json
import sys
import time

import pva


class Plain:
    __slots__ = ("cycles", "cyclesFrom")

    def __init__(self, i):
        self.cycles = i
        self.cyclesFrom = 2 * i


def bench_baseline(items):
    objects = [Plain(i) for i in range(items)]
    start = time.perf_counter()
    count = 0
    total = 0
    for o in objects:
        total += o.cycles + o.cyclesFrom
        count += 1
    return count / (time.perf_counter() - start)


def bench_steps(path):
    start = time.perf_counter()
    cpu = time.process_time()
    report = pva.openReport(path)
    count = 0
    total = 0
    for run in report.execution.runs:
        for step in run.steps:
            total += step.cycles + step.cyclesFrom
            count += 1
    return count, time.perf_counter() - start, time.process_time() - cpu


def bench_events(path):
    start = time.perf_counter()
    cpu = time.process_time()
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
    return count, time.perf_counter() - start, opened, time.process_time() - cpu


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("profile")
    parser.add_argument("trace")
    parser.add_argument("--min-rate", type=float, default=0)
    args = parser.parse_args()
    steps, steps_s, steps_cpu = bench_steps(args.profile)
    events, events_s, open_s, events_cpu = bench_events(args.trace)
    baseline = bench_baseline(max(steps, 1))
    result = {
        "steps": steps, "steps_seconds": round(steps_s, 3),
        "steps_per_second": round(steps / steps_s),
        "steps_per_cpu_second": round(steps / max(steps_cpu, 1e-9)),
        "events": events, "events_seconds": round(events_s, 3),
        "events_open_seconds": round(open_s, 3),
        "events_per_second": round(events / events_s),
        "events_per_cpu_second": round(events / max(events_cpu, 1e-9)),
        "python_baseline_per_second": round(baseline),
        "steps_vs_baseline": round(steps / steps_s / baseline, 3),
        "events_vs_baseline": round(events / events_s / baseline, 3),
    }
    print(json.dumps(result))
    slow = [k for k in ("steps_per_second", "events_per_second") if result[k] < args.min_rate]
    if slow:
        print(f"below {args.min_rate:.0f} items/s: {', '.join(slow)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
