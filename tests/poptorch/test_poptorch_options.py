"""poptorch.Options as PopTorch's users set them: the setters chaining and recording, the bad
values named, the options that do not apply on the simulated IPU warned by name, PopART's session
and engine options reaching the session, and logCycleCount's cycle count."""
import logging

import pytest
import torch

import poptorch
import models


def test_options_setters_chain_and_record():
    opts = poptorch.Options().deviceIterations(4).replicationFactor(2).randomSeed(7)
    opts.Training.gradientAccumulation(3)
    opts.Precision.setPartialsType(torch.half)
    opts.setAvailableMemoryProportion({"IPU0": 0.4})
    opts.Jit.traceModel(True)
    opts.anchorMode(poptorch.AnchorMode.EveryN, 2)
    assert (opts.device_iterations, opts.replication_factor, opts.random_seed) == (4, 2, 7)
    assert opts.Training.gradient_accumulation == 3
    assert opts.Precision.partials_type == "half"
    assert opts.available_memory_proportion == {0: 0.4}
    assert opts.output_mode == poptorch.OutputMode.EveryN and opts.output_return_period == 2
    assert opts.notApplying() == {}
    opts.autoRoundNumIPUs(True).TensorLocations.setOptimizerLocation("x")
    assert set(opts.notApplying()) == {"autoRoundNumIPUs", "TensorLocations.setOptimizerLocation"}


@pytest.mark.parametrize("call,message", [
    (lambda o: o.deviceIterations(0), "deviceIterations"),
    (lambda o: o.outputMode(poptorch.OutputMode.EveryN), "output_return_period"),
    (lambda o: o.setAvailableMemoryProportion({"GPU0": 0.5}), "IPU<n>"),
    (lambda o: o.setAvailableMemoryProportion({"IPU0": 1.5}), "(0, 1]"),
    (lambda o: o.Precision.setPartialsType(torch.int32), "setPartialsType"),
    (lambda o: o.Training.gradientAccumulation(-1), "gradientAccumulation"),
    (lambda o: o.noSuchOption(1), "noSuchOption"),
])
def test_bad_options_are_named(call, message):
    with pytest.raises((ValueError, AttributeError), match=message.replace("(", r"\(").replace(
            "[", r"\[").replace("]", r"\]")):
        call(poptorch.Options())


def test_not_applying_options_warn_by_name(caplog, tmp_path, monkeypatch):
    monkeypatch.setenv("POPTORCH_CACHE_DIR", str(tmp_path))
    opts = poptorch.Options().enableStableNorm(True)
    model, data = models.make("mlp")
    model.eval()
    logger = logging.getLogger("poptorch")
    logger.addHandler(caplog.handler)  # poptorch's logger does not propagate to the root
    try:
        poptorch.inferenceModel(model, opts)(data(2)[0])
    finally:
        logger.removeHandler(caplog.handler)
    text = caplog.text
    assert "enableStableNorm" in text
    assert "enableExecutableCaching" in text
    assert opts.executable_cache_dir == str(tmp_path)


def test_popart_options_and_engine_options_reach_the_session(tmp_path):
    opts = poptorch.Options().logDir(str(tmp_path))
    opts._Popart.set("enableOutlining", False)
    opts._Popart.setEngineOptions({"debug.instrument": "true"})
    model, data = models.make("mlp")
    model.eval()
    inference = poptorch.inferenceModel(model, opts)
    inference(data(2)[0])
    assert inference._session_options(inference._lowered).engineOptions == {
        "debug.instrument": "true"}
    assert inference._session_options(inference._lowered).logDir == str(tmp_path)


def test_cycle_count():
    model, data = models.make("mlp")
    model.eval()
    x, _ = data(4)
    plain = poptorch.inferenceModel(model)
    plain(x)
    with pytest.raises(poptorch.Error, match="logCycleCount"):
        plain.cycleCount()
    counted = poptorch.inferenceModel(model, poptorch.Options().logCycleCount(True))
    with pytest.raises(poptorch.Error, match="at least once"):
        counted.cycleCount()
    counted(x)
    assert counted.cycleCount() > 0
