"""poptorch.Options: how a PopTorch model is compiled and run, with PopTorch's setters (each
returns the options object, so calls chain) and sub-objects (`Training`, `Precision`, `Jit`,
`_Popart`, `TensorLocations`, `Distributed`).

What a simulated IPU does with each: device iterations, replication, gradient accumulation, the
output mode, the random seed, partials type, half/float casting, available memory proportion,
log directory, engine and PopART session options reach the PopART face. Settings that only
mean something on IPU hardware or to PopTorch's own compiler (executable caching, synthetic
data, stochastic rounding, ...) are accepted and recorded: `Options.notApplying()` lists them
and poptorch's logger warns once per option, naming it, when a model is compiled with it."""
import copy
import os

import torch

from . import enums
from ._logging import logger


class _OptionsDict:
    """Named values with PopTorch's `toDict`; subclasses add the setters."""

    def __init__(self, **defaults):
        object.__setattr__(self, "_values", dict(defaults))

    def set(self, **values):
        for key in values:
            if key not in self._values:
                raise AttributeError(f"{type(self).__name__}: unknown option '{key}'")
        self._values.update(values)
        return self

    def __getattr__(self, name):
        values = object.__getattribute__(self, "_values")
        if name in values:
            return values[name]
        raise AttributeError(f"{type(self).__name__} has no option '{name}'")

    def toDict(self):
        return copy.deepcopy(self._values)


class _NotApplying:
    """The options set that a simulated IPU does not apply: name -> value."""

    def __init__(self):
        self.entries = {}

    def record(self, name, value):
        self.entries[name] = value


class _JitOptions(_OptionsDict):
    """`opts.Jit`: PopTorch traced the model (traceModel(True)); scripting is not available."""

    def __init__(self, not_applying):
        super().__init__(trace_model=True)
        self._not_applying = not_applying

    def traceModel(self, trace_model):
        if not isinstance(trace_model, bool):
            raise ValueError("Jit.traceModel needs a bool")
        self.set(trace_model=trace_model)
        if not trace_model:
            # torch.onnx.export traces; a scripted model's control flow is not kept.
            self._not_applying.record("Jit.traceModel(False)", False)
        return self


class _PopartOptions:
    """`opts._Popart`: PopART SessionOptions by name (`set(key, value)`), engine options and
    patterns. Keys the PopART face lacks are recorded as not applying."""

    def __init__(self, not_applying):
        self.options = {}
        self.patterns = {}
        self._not_applying = not_applying

    def set(self, key, value):
        self.options[key] = value
        return self

    def setEngineOptions(self, engine_options):
        if not isinstance(engine_options, dict):
            raise ValueError("_Popart.setEngineOptions needs a dict of strings")
        self.set("engineOptions", {str(k): str(v) for k, v in engine_options.items()})
        return self

    def setPatterns(self, patterns, level=2):
        if not isinstance(patterns, dict):
            raise ValueError("_Popart.setPatterns needs a dict of pattern name -> bool")
        self.patterns = dict(patterns)
        self._not_applying.record("_Popart.setPatterns", patterns)
        return self


class _PrecisionOptions(_OptionsDict):
    """`opts.Precision`: partials type of matmuls and convolutions, how float32 meets float16
    (halfFloatCasting, see poptorch._half); the rest recorded."""

    def __init__(self, popart, not_applying):
        super().__init__(partials_type=None, half_float_casting=None,
                         running_statistics_always_float=True)
        self._popart = popart
        self._not_applying = not_applying

    def setPartialsType(self, dtype):
        if dtype in (torch.float, torch.float32):
            name = "float"
        elif dtype in (torch.half, torch.float16):
            name = "half"
        else:
            raise ValueError("Precision.setPartialsType needs torch.float or torch.half")
        self.set(partials_type=name)
        return self

    def halfFloatCasting(self, behaviour):
        if not isinstance(behaviour, enums.HalfFloatCastingBehavior):
            raise ValueError("Precision.halfFloatCasting needs a poptorch.HalfFloatCastingBehavior")
        self.set(half_float_casting=behaviour)
        return self

    def runningStatisticsAlwaysFloat(self, value):
        if not isinstance(value, bool):
            raise ValueError("Precision.runningStatisticsAlwaysFloat needs a bool")
        self.set(running_statistics_always_float=value)
        return self

    def enableStochasticRounding(self, enabled):
        self._popart.set("enableStochasticRounding", bool(enabled))
        return self

    def enableFloatingPointExceptions(self, enabled):
        self._popart.set("enableFloatingPointChecks", bool(enabled))
        return self

    def autocastEnabled(self, enabled):
        self._not_applying.record("Precision.autocastEnabled", enabled)
        return self


class _TrainingOptions(_OptionsDict):
    """`opts.Training`: gradient accumulation and how accumulated gradients are reduced."""

    def __init__(self, not_applying):
        super().__init__(gradient_accumulation=1,
                         accumulation_and_replication_reduction_type=enums.ReductionType.Mean,
                         mean_reduction_strategy=None)
        self._not_applying = not_applying

    def gradientAccumulation(self, gradient_accumulation):
        if not isinstance(gradient_accumulation, int) or gradient_accumulation < 1:
            raise ValueError("Training.gradientAccumulation needs an integer of at least 1")
        self.set(gradient_accumulation=gradient_accumulation)
        return self

    def accumulationAndReplicationReductionType(self, reduction_type):
        if reduction_type not in (enums.ReductionType.Mean, enums.ReductionType.Sum):
            raise ValueError("Training.accumulationAndReplicationReductionType must be "
                             "poptorch.ReductionType.Mean or poptorch.ReductionType.Sum")
        self.set(accumulation_and_replication_reduction_type=reduction_type)
        return self

    def setMeanAccumulationAndReplicationReductionStrategy(self, strategy):
        if not isinstance(strategy, enums.MeanReductionStrategy):
            raise ValueError("Training.setMeanAccumulationAndReplicationReductionStrategy needs a "
                             "poptorch.MeanReductionStrategy")
        self.set(mean_reduction_strategy=strategy)
        return self

    def setAutomaticLossScaling(self, enabled):
        self._not_applying.record("Training.setAutomaticLossScaling", enabled)
        return self

    def setConvolutionDithering(self, enabled):
        self._not_applying.record("Training.setConvolutionDithering", enabled)
        return self


class _RecordingOptions:
    """A sub-object whose every setter is accepted and recorded as not applying (the IPU
    hardware's tensor locations, multi-host distribution)."""

    def __init__(self, prefix, not_applying):
        self._prefix = prefix
        self._not_applying = not_applying

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)

        def setter(*args, **kwargs):
            self._not_applying.record(f"{self._prefix}.{name}", (args, kwargs))
            return self

        return setter


class Options(_OptionsDict):
    """PopTorch's options of a model (see the module's comment for what each does here)."""

    def __init__(self):
        super().__init__(device_iterations=1, replication_factor=1,
                         output_mode=enums.OutputMode.Default, output_return_period=1,
                         random_seed=None, available_memory_proportion={}, log_dir=None,
                         executable_cache_dir=os.environ.get("POPTORCH_CACHE_DIR", ""),
                         use_ipu_model=True, model_name=None, log_cycle_count=False)
        not_applying = _NotApplying()
        object.__setattr__(self, "_not_applying", not_applying)
        object.__setattr__(self, "_Popart", _PopartOptions(not_applying))
        object.__setattr__(self, "Training", _TrainingOptions(not_applying))
        object.__setattr__(self, "Precision", _PrecisionOptions(self._Popart, not_applying))
        object.__setattr__(self, "Jit", _JitOptions(not_applying))
        object.__setattr__(self, "TensorLocations", _RecordingOptions("TensorLocations",
                                                                      not_applying))
        object.__setattr__(self, "Distributed", _RecordingOptions("Distributed", not_applying))

    def __setattr__(self, name, value):
        raise AttributeError(f"poptorch.Options: set options with their setters, not '{name}'")

    def deviceIterations(self, device_iterations):
        if not isinstance(device_iterations, int) or device_iterations < 1:
            raise ValueError("deviceIterations needs an integer of at least 1")
        return self.set(device_iterations=device_iterations)

    def replicationFactor(self, replication_factor):
        if not isinstance(replication_factor, int) or replication_factor < 1:
            raise ValueError("replicationFactor needs an integer of at least 1")
        return self.set(replication_factor=replication_factor)

    def outputMode(self, output_mode, output_return_period=None):
        if not isinstance(output_mode, enums.OutputMode):
            raise ValueError("outputMode needs a poptorch.OutputMode")
        if output_mode == enums.OutputMode.EveryN:
            if not isinstance(output_return_period, int) or output_return_period < 1:
                raise ValueError("outputMode(EveryN) needs output_return_period, an integer "
                                 "of at least 1")
        elif output_return_period is not None:
            raise ValueError("output_return_period is only for poptorch.OutputMode.EveryN")
        return self.set(output_mode=output_mode, output_return_period=output_return_period or 1)

    def anchorMode(self, anchor_mode, anchor_return_period=None):
        """PopTorch's older name of outputMode."""
        return self.outputMode(anchor_mode, anchor_return_period)

    def defaultOutputMode(self):
        return self.output_mode == enums.OutputMode.Default

    def randomSeed(self, random_seed):
        if not isinstance(random_seed, int) or random_seed < 0:
            raise ValueError("randomSeed needs a non-negative integer")
        torch.manual_seed(random_seed)  # the host's too, as PopTorch
        return self.set(random_seed=random_seed)

    def enableExecutableCaching(self, path):
        """Executables are cached in `path` (None or "" turns caching off)."""
        self.set(executable_cache_dir=path or "")
        return self

    def setAvailableMemoryProportion(self, available_memory_proportion):
        """Per IPU ({"IPU0": 0.3, ...}): the default of matmuls and convolutions on that IPU."""
        if not isinstance(available_memory_proportion, dict):
            raise ValueError('setAvailableMemoryProportion needs a dict such as {"IPU0": 0.3}')
        checked = {}
        for key, value in available_memory_proportion.items():
            if not (isinstance(key, str) and key.startswith("IPU") and key[3:].isdigit()):
                raise ValueError(f"setAvailableMemoryProportion: key '{key}' is not IPU<n>")
            if not 0.0 < float(value) <= 1.0:
                raise ValueError(f"setAvailableMemoryProportion: {key}={value} is not in (0, 1]")
            checked[int(key[3:])] = float(value)
        return self.set(available_memory_proportion=checked)

    def logDir(self, log_dir):
        return self.set(log_dir=str(log_dir))

    def useIpuModel(self, use_model):
        # Every device is simulated here: the IPU Model is what runs either way.
        return self.set(use_ipu_model=bool(use_model))

    def modelName(self, name):
        return self.set(model_name=str(name))

    def logCycleCount(self, log_cycle_count):
        """Lets PoplarExecutor.cycleCount() give the simulated cycles of the last run."""
        if not isinstance(log_cycle_count, bool):
            raise ValueError("logCycleCount needs a bool")
        return self.set(log_cycle_count=log_cycle_count)

    def enableSyntheticData(self, enabled):
        self._Popart.set("syntheticDataMode", 2 if enabled else 0)
        return self

    def _record(self, name):

        def setter(*args, **kwargs):
            self._not_applying.record(name, (args, kwargs))
            return self

        return setter

    def __getattr__(self, name):
        values = object.__getattribute__(self, "_values")
        if name in values:
            return values[name]
        if name in _RECORDED_SETTERS:
            return self._record(name)
        raise AttributeError(f"poptorch.Options has no option '{name}'")

    def notApplying(self):
        """The options set that a simulated IPU does not apply, name -> value."""
        return dict(self._not_applying.entries)

    def toDict(self):
        out = super().toDict()
        out["Training"] = self.Training.toDict()
        out["Precision"] = self.Precision.toDict()
        out["Jit"] = self.Jit.toDict()
        out["_Popart"] = copy.deepcopy(self._Popart.options)
        return out

    def clone(self):
        return copy.deepcopy(self)

    def __repr__(self):
        return f"poptorch.Options({self.toDict()})"


# Setters of PopTorch's Options that only mean something on IPU hardware or to PopTorch's own
# compiler: accepted, recorded, and named in a warning when a model compiles with them.
_RECORDED_SETTERS = (
    "autoRoundNumIPUs",
    "connectionType",
    "syncPattern",
    "useIpuId",
    "useOfflineIpuTarget",
    "enableStableNorm",
    "enableProfiling",
    "setExecutionStrategy",
    "relaxOptimizerAttributesChecks",
    "showCompilationProgressBar",
    "updatableNamedBuffers",
    "ipuModelVersion",
    "inputReplicaGrouping",
    "loadFromFile",
    "anchorTensor",
    "disableModuleNamescope",
    "setPipelineStageOverlap",
)
