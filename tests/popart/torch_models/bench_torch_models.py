"""Session compile and run times of the four torch models through popart (IPU Model, host
simulation) against the same models run natively by torch on the same machine. Prints JSON:
per model and mode (inference, training), popart's prepareDevice seconds, the median seconds per run (one
batch), torch's seconds per forward (or forward + backward + SGD step), and their ratio; or the
error of a model popart cannot compile.

usage: bench_torch_models.py [--runs N] [--models mlp,encoder,...]
"""
import argparse
import copy
import json
import os
import statistics
import sys
import tempfile
import time

import onnx

import popart

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import models  # noqa: E402

TILES = 16


def _seconds(fn, runs):
    """The median seconds of one call over `runs` calls, after a warm-up call (the first run of
    either side does one-time work); the median keeps a loaded machine's outliers out."""
    fn()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def bench_inference(name, model, x, directory, runs):
    import torch
    path = models.export(copy.deepcopy(model), (x,), directory, name)
    output = onnx.load(path).graph.output[0].name
    device = popart.DeviceManager().createIpuModelDevice({"numIPUs": 1, "tilesPerIPU": TILES})
    session = popart.InferenceSession(fnModel=path,
                                      dataFlow=popart.DataFlow(
                                          1, {output: popart.AnchorReturnType("ALL")}),
                                      deviceInfo=device)
    start = time.perf_counter()
    session.prepareDevice()
    compile_s = time.perf_counter() - start
    session.weightsFromHost()
    anchors = session.initAnchorArrays()
    stepio = popart.PyStepIO({"input0": x}, anchors)
    run_s = _seconds(lambda: session.run(stepio), runs)
    model.eval()
    tx = torch.from_numpy(x)
    with torch.no_grad():
        torch_s = _seconds(lambda: model(tx), runs)
    return compile_s, run_s, torch_s


def bench_training(name, model, x, target, loss, directory, runs):
    import torch
    wrapped = models.WithLoss(copy.deepcopy(model), loss)
    path = models.export(copy.deepcopy(wrapped), (x, target), directory, name + "_train")
    loss_name = onnx.load(path).graph.output[0].name
    device = popart.DeviceManager().createIpuModelDevice({"numIPUs": 1, "tilesPerIPU": TILES})
    session = popart.TrainingSession(fnModel=path,
                                     dataFlow=popart.DataFlow(
                                         1, {loss_name: popart.AnchorReturnType("ALL")}),
                                     loss=loss_name, optimizer=popart.ConstSGD(0.01),
                                     deviceInfo=device)
    start = time.perf_counter()
    session.prepareDevice()
    compile_s = time.perf_counter() - start
    session.weightsFromHost()
    anchors = session.initAnchorArrays()
    stepio = popart.PyStepIO({"input0": x, "input1": target}, anchors)
    run_s = _seconds(lambda: session.run(stepio), runs)
    optimiser = torch.optim.SGD(wrapped.parameters(), lr=0.01)
    tx, tt = torch.from_numpy(x), torch.from_numpy(target)

    def step():
        optimiser.zero_grad()
        wrapped(tx, tt)[0].backward()
        optimiser.step()

    torch_s = _seconds(step, runs)
    return compile_s, run_s, torch_s


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--models", default="mlp,encoder,gpt,cnn")
    args = parser.parse_args()
    cases = models.cases()
    unknown = set(args.models.split(",")) - set(cases)
    if unknown:
        sys.exit(f"bench_torch_models.py: unknown models {sorted(unknown)}; known: {sorted(cases)}")
    results = {}
    with tempfile.TemporaryDirectory() as directory:
        for name in args.models.split(","):
            model, x, target, loss = cases[name]
            for mode in ("inference", "training"):
                try:
                    if mode == "inference":
                        c, r, t = bench_inference(name, model, x, directory, args.runs)
                    else:
                        c, r, t = bench_training(name, model, x, target, loss, directory,
                                                 args.runs)
                except popart.popart_exception as e:
                    # A model popart cannot compile yet is reported, not timed.
                    results[f"{name}_{mode}"] = {"error": str(e)}
                    continue
                results[f"{name}_{mode}"] = {
                    "compile_seconds": round(c, 4),
                    "run_seconds": round(r, 6),
                    "torch_seconds": round(t, 6),
                    "run_over_torch": round(r / t, 1) if t > 0 else None,
                }
    print(json.dumps({"tiles": TILES, "runs": args.runs, "models": results}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
