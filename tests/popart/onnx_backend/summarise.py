"""Adds up the JSON results of the ONNX node-test runs (conftest.py writes one per run) and prints
passed / failed / excluded by op group, the exclusion reasons by group and each failure's first
error; exits 1 when fewer than --min-passed tests of the ops in scope passed.

usage: summarise.py [--min-passed N] [--json OUT] RESULTS.json...
"""
import argparse
import collections
import json
import sys


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("results", nargs="+")
    parser.add_argument("--min-passed", type=int, default=0)
    parser.add_argument("--json", help="also write the totals here")
    parser.add_argument("--failures", action="store_true", help="list each failure")
    args = parser.parse_args()

    results = {}
    for path in args.results:
        try:
            with open(path) as f:
                results.update(json.load(f))
        except (OSError, ValueError) as e:
            sys.exit(f"summarise.py: cannot read results '{path}': {e}")

    table = collections.defaultdict(collections.Counter)
    reasons = collections.defaultdict(collections.Counter)
    for test, r in sorted(results.items()):
        table[r["group"]][r["outcome"]] += 1
        if r["outcome"] == "excluded":
            reasons[r["group"]][r["reason"]] += 1

    print(f"{'group':14} {'passed':>6} {'failed':>6} {'excluded':>8}")
    totals = collections.Counter()
    for group in sorted(table):
        row = table[group]
        print(f"{group:14} {row['passed']:6} {row['failed']:6} {row['excluded']:8}")
        if group != "out of scope":
            totals.update(row)
    print(f"{'in scope':14} {totals['passed']:6} {totals['failed']:6} {totals['excluded']:8}")
    print("\nexclusions by group:")
    for group in sorted(reasons):
        for reason, n in reasons[group].most_common():
            print(f"  {group}: {n} x {reason}")
    if args.failures:
        print("\nfailures:")
        for test, r in sorted(results.items()):
            if r["outcome"] == "failed":
                print(f"  [{r['group']}] {test}: {r['error']}")
    if args.json:
        with open(args.json, "w") as out:
            json.dump({"by_group": {g: dict(r) for g, r in table.items()},
                       "in_scope": dict(totals)}, out, indent=1, sort_keys=True)
    if totals["passed"] < args.min_passed:
        print(f"\n{totals['passed']} node tests of the ops in scope passed, fewer than "
              f"{args.min_passed}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
