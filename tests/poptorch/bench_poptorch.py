"""Step times of the poptorch tests' models (models.py: MLP, CNN, transformer) on the simulated
IPU against the same models run by torch on the CPU in the same process. Prints one JSON object:
per model and mode, poptorch's compile seconds (export + PopART session + device), the median
seconds of one step (a call of one device iteration: forward, or forward + backward + SGD), torch's
median seconds of the same step, and their ratio, and the step's simulated IPU cycles; with
torch's thread count and the load average. The modes "inference_half" and "training_half" run
the model in float16 (model.half(), half inputs) on the IPU against torch in float32 (torch 1.13
has no float16 matmuls on the CPU).

usage: bench_poptorch.py [--runs N] [--batch B] [--models mlp,cnn,transformer] [--no-half]
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


def _figures(compile_s, ipu_s, torch_s, cycles):
    return {"compile_s": round(compile_s, 4), "ipu_step_s": round(ipu_s, 6),
            "torch_step_s": round(torch_s, 6), "ipu_over_torch": round(ipu_s / torch_s, 2),
            "ipu_cycles": cycles}


def _on_ipu(model, half):
    """A copy of `model` for the IPU, in float16 if `half`."""
    model = copy.deepcopy(model)
    return model.half() if half else model


def _ipu_input(t, half):
    return t.half() if half and t.is_floating_point() else t


def bench(name, batch, runs, half):
    model, data = models.make(name)
    x, y = data(batch)
    options = poptorch.Options().logCycleCount(True)
    results = {}

    with torch.no_grad():
        cpu_inference = copy.deepcopy(model).eval()
        torch_inference_s = _median_seconds(lambda: cpu_inference(x), runs)
    cpu_model = copy.deepcopy(model)
    cpu_optimizer = torch.optim.SGD(cpu_model.parameters(), lr=0.01)

    def cpu_step():
        cpu_optimizer.zero_grad()
        cpu_model(x, y)[1].backward()
        cpu_optimizer.step()

    torch_training_s = _median_seconds(cpu_step, runs)

    for suffix in ("", "_half") if half else ("", ):
        ix = _ipu_input(x, suffix == "_half")
        inference_model = _on_ipu(model, suffix == "_half").eval()
        inference = poptorch.inferenceModel(inference_model, options)
        start = time.perf_counter()
        inference.compile(ix)
        compile_s = time.perf_counter() - start
        ipu_s = _median_seconds(lambda: inference(ix), runs)
        results["inference" + suffix] = _figures(compile_s, ipu_s, torch_inference_s,
                                                 inference.cycleCount())

        training_model = _on_ipu(model, suffix == "_half")
        training = poptorch.trainingModel(
            training_model, options,
            optimizer=torch.optim.SGD(training_model.parameters(), lr=0.01))
        start = time.perf_counter()
        training.compile(ix, y)
        compile_s = time.perf_counter() - start
        ipu_s = _median_seconds(lambda: training(ix, y), runs)
        results["training" + suffix] = _figures(compile_s, ipu_s, torch_training_s,
                                                training.cycleCount())
    return results


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=21, help="timed calls per figure")
    parser.add_argument("--batch", type=int, default=8, help="samples per step")
    parser.add_argument("--models", default=",".join(models.NAMES),
                        help="comma-separated: " + ", ".join(models.NAMES))
    parser.add_argument("--no-half", dest="half", action="store_false",
                        help="leave out the float16 runs")
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
        out["models"][name] = bench(name, args.batch, args.runs, args.half)
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
