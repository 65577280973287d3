"""Step times of the poptorch tests' models (models.py: MLP, CNN, transformer) on the simulated
IPU against the same models run by torch on the CPU in the same process. Prints one JSON object:
per model and mode, poptorch's compile seconds (export + PopART session + device), the median
seconds of one step (a call of one device iteration: forward, or forward + backward + SGD), torch's
median seconds of the same step, and their ratio; with torch's thread count and the load average.

usage: bench_poptorch.py [--runs N] [--batch B] [--models mlp,cnn,transformer]
"""
import argparse
import copy
import json
import os
import statistics
import sys
import time

import torch

import poptorch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import models  # noqa: E402


def _median_seconds(fn, runs):
    """Median seconds of one call over `runs` calls after a warm-up call."""
    fn()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def _figures(compile_s, ipu_s, torch_s):
    return {"compile_s": round(compile_s, 4), "ipu_step_s": round(ipu_s, 6),
            "torch_step_s": round(torch_s, 6), "ipu_over_torch": round(ipu_s / torch_s, 2)}


def bench(name, batch, runs):
    model, data = models.make(name)
    x, y = data(batch)
    results = {}

    inference_model = copy.deepcopy(model).eval()
    inference = poptorch.inferenceModel(inference_model)
    start = time.perf_counter()
    inference.compile(x)
    compile_s = time.perf_counter() - start
    ipu_s = _median_seconds(lambda: inference(x), runs)
    with torch.no_grad():
        torch_s = _median_seconds(lambda: inference_model(x), runs)
    results["inference"] = _figures(compile_s, ipu_s, torch_s)

    training_model = copy.deepcopy(model)
    training = poptorch.trainingModel(
        training_model, optimizer=torch.optim.SGD(training_model.parameters(), lr=0.01))
    start = time.perf_counter()
    training.compile(x, y)
    compile_s = time.perf_counter() - start
    ipu_s = _median_seconds(lambda: training(x, y), runs)
    cpu_model = copy.deepcopy(model)
    cpu_optimizer = torch.optim.SGD(cpu_model.parameters(), lr=0.01)

    def cpu_step():
        cpu_optimizer.zero_grad()
        cpu_model(x, y)[1].backward()
        cpu_optimizer.step()

    torch_s = _median_seconds(cpu_step, runs)
    results["training"] = _figures(compile_s, ipu_s, torch_s)
    return results


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=21, help="timed calls per figure")
    parser.add_argument("--batch", type=int, default=8, help="samples per step")
    parser.add_argument("--models", default=",".join(models.NAMES),
                        help="comma-separated: " + ", ".join(models.NAMES))
    args = parser.parse_args()
    if args.runs < 1 or args.batch < 1:
        parser.error("--runs and --batch must be at least 1")
    names = [n for n in args.models.split(",") if n]
    unknown = [n for n in names if n not in models.NAMES]
    if unknown:
        parser.error(f"unknown model(s) {', '.join(unknown)}; known: {', '.join(models.NAMES)}")
    out = {"runs": args.runs, "batch": args.batch, "torch_threads": torch.get_num_threads(),
           "load_average": [round(v, 2) for v in os.getloadavg()], "models": {}}
    for name in names:
        out["models"][name] = bench(name, args.batch, args.runs)
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
