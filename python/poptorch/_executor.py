"""PoplarExecutor: a torch model compiled for a simulated IPU by the PopART face, as
poptorch.trainingModel and poptorch.inferenceModel return it.

The first call (or compile()) exports the model at the micro-batch shape (the call's batch
divided by device iterations x replicas x gradient accumulation), builds an InferenceSession or
TrainingSession with the options, and copies the module's weights to the device. Each call then
runs `deviceIterations` steps and returns the outputs the output mode asks for. A training
model's weights stay on the device; the module reads them back when the host looks at them
(poptorch._weights). An inference model copies the module's weights to the device again when
they changed on the host since the last copy (torch's tensor version counters tell)."""
import contextlib
import inspect
import re

import numpy as np
import torch

import popart

from . import _lowering, _optimizers, _weights, enums
from ._logging import logger
from .errors import Error
from .options import Options

# Parameter dtypes the device holds as they are (float16 weights stay FLOAT16); other floating
# dtypes are copied as float32.
_DEVICE_DTYPES = {torch.float32: np.float32, torch.float16: np.float16}

_ANCHOR_NAMES = {
    enums.OutputMode.All: "ALL",
    enums.OutputMode.Final: "FINAL",
    enums.OutputMode.Sum: "SUM",
    enums.OutputMode.EveryN: "EVERYN",
}


def _popart_error(e, lowered):
    """poptorch.Error for an error of the PopART face, naming the module path of the node it
    is about when the message names one."""
    text = str(e)
    match = re.search(r"node '([^']*)'", text)
    location = match.group(1) if match else ""
    op = text.split(" ", 1)[0] if match else ""
    if match:
        return Error(f"poptorch: op '{op}' of '{location}' cannot be lowered: {text}",
                     location=location)
    return Error(f"poptorch: {text}", location=location)


@contextlib.contextmanager
def _untraced():
    """Host-side tensor work that must not enter a trace torch may be recording: a training
    model dropped (and so copying its weights back) while another model is being exported."""
    state = torch._C._get_tracing_state()
    if state is not None:
        torch._C._set_tracing_state(None)
    try:
        yield
    finally:
        if state is not None:
            torch._C._set_tracing_state(state)


def _format_tensor(value, form):
    """An ipu_print_tensor value as numpy prints it with the call's format arguments."""
    formatter = None
    if form["float_format"] not in ("auto", None):
        formatter = {"float_kind": lambda v: format(v, form["float_format"])}
    text = np.array2string(value, max_line_width=form["max_line_width"],
                           precision=form["precision"], separator=form["separator"],
                           threshold=form["threshold"], edgeitems=form["edgeitems"],
                           formatter=formatter)
    opening, closing = form["brackets"]
    if (opening, closing) != ("[", "]"):
        text = text.replace("[", opening).replace("]", closing)
    return text


def _no_backward(*args, **kwargs):
    raise Error("poptorch: backward() cannot be called on the outputs of a PopTorch model: a "
                "trainingModel runs the backward pass and the optimizer step itself when called")


class PoplarExecutor:
    """The wrapper of a model trained or run on the simulated IPU (see the module's comment).
    Attributes it does not have are the wrapped module's."""

    def __init__(self, model, options, training, optimizer=None):
        if not isinstance(model, torch.nn.Module):
            raise Error(f"poptorch: the model must be a torch.nn.Module, not "
                        f"{type(model).__name__}")
        options = options if options is not None else Options()
        if not isinstance(options, Options):
            raise Error("poptorch: options must be poptorch.Options, not "
                        f"{type(options).__name__}")
        options = options.clone()
        if options.defaultOutputMode():
            options.outputMode(enums.OutputMode.Final if training else enums.OutputMode.All)
        if not training:
            if options.Training.gradient_accumulation != 1:
                raise Error("poptorch.inferenceModel: Training.gradientAccumulation must be 1 "
                            "for inference")
            if optimizer is not None:
                raise Error("poptorch.inferenceModel: an inference model takes no optimizer")
        elif optimizer is None:
            optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
        self.__dict__.update(_user_model=model, _options=options, _training=training,
                             _optimizer=optimizer, _session=None, _device=None, _lowered=None,
                             _input_shapes=None, _dirty_host_weights=False,
                             _uploaded_versions=None, _optimizer_signature=None, _attached=False,
                             _anchors=None, _warned=set(), _ran=False)
        if training:
            _weights.attach(model, self)

    # --- the wrapped module -------------------------------------------------------------------
    def __getattr__(self, name):
        return getattr(self.__dict__["_user_model"], name)

    @property
    def model(self):
        return self._user_model

    @property
    def options(self):
        return self._options

    @property
    def training(self):
        return self._training

    def __repr__(self):
        kind = "trainingModel" if self._training else "inferenceModel"
        return f"poptorch.{kind}({self._user_model!r})"

    def state_dict(self, *args, **kwargs):
        return self._user_model.state_dict(*args, **kwargs)

    def load_state_dict(self, state_dict, strict=True):
        """The module's load_state_dict, then the weights copied to the device."""
        result = self._user_model.load_state_dict(state_dict, strict)
        if self.isCompiled() and self._attached:
            self.copyWeightsToDevice()
        return result

    # --- compilation --------------------------------------------------------------------------
    def _factor(self):
        o = self._options
        return o.device_iterations * o.replication_factor * o.Training.gradient_accumulation

    def _bind(self, args, kwargs):
        if kwargs:
            try:
                bound = inspect.signature(self._user_model.forward).bind(*args, **kwargs)
            except TypeError as e:
                raise Error(f"poptorch: the model's forward does not take these arguments: {e}")
            bound.apply_defaults()
            args = tuple(bound.arguments.values())
        tensors = []
        for i, a in enumerate(args):
            if not isinstance(a, torch.Tensor):
                raise Error(f"poptorch: argument {i} of the model is a {type(a).__name__}; "
                            "PopTorch models take tensors")
            if a.dtype == torch.float64:
                a = a.float()
            tensors.append(a.detach().contiguous())
        return tensors

    def _micro_batches(self, args):
        factor = self._factor()
        micro = []
        for i, a in enumerate(args):
            if a.dim() == 0 or a.shape[0] % factor != 0:
                o = self._options
                raise Error(f"poptorch: input {i} has shape {list(a.shape)}: its first dimension "
                            f"must be a multiple of device iterations ({o.device_iterations}) x "
                            f"replicas ({o.replication_factor}) x gradient accumulation "
                            f"({o.Training.gradient_accumulation}) = {factor} (a poptorch."
                            "DataLoader with these options gives such batches)")
            micro.append(a[:a.shape[0] // factor])
        return micro

    def compile(self, *args, **kwargs):
        """Compiles the model for the inputs of one call (the combined batch), without
        running it."""
        if self._session is not None:
            logger.warning("compile() ignored: the model is already compiled")
            return
        self._compile(self._bind(args, kwargs))

    def _compile(self, args):
        o = self._options
        micro = self._micro_batches(args)
        model = self._user_model
        was_training = model.training
        if not self._training:
            model.eval()
        try:
            # With gradients enabled, as torch's fused inference paths (TransformerEncoderLayer's)
            # have no ONNX form.
            lowered = _lowering.lower(model, micro, self._training, o)
        finally:
            model.train(was_training)
        self._warn_not_applying()
        loss = lowered.loss
        anchors = {}
        art = _ANCHOR_NAMES[o.output_mode]
        for name in lowered.outputs:
            anchors[name] = (popart.AnchorReturnType(art, o.output_return_period)
                             if art == "EVERYN" else popart.AnchorReturnType(art))
        for tensor, _ in lowered.prints:
            anchors[tensor] = popart.AnchorReturnType("ALL")
        for norm in lowered.batch_norms:
            anchors[norm.mean_out] = anchors[norm.var_out] = popart.AnchorReturnType("ALL")
        flow = popart.DataFlow(o.device_iterations, anchors)
        session_options = self._session_options(lowered)
        num_ipus = lowered.num_ipus * o.replication_factor
        self._device = popart.DeviceManager().createIpuModelDevice({"numIPUs": num_ipus})
        self._lowered = lowered
        model_bytes = lowered.model.SerializeToString()
        try:
            if self._training:
                self._weight_ids = {id(p): n for n, p in lowered.weights.items()}
                session = popart.TrainingSession(
                    fnModel=model_bytes, dataFlow=flow, loss=loss,
                    optimizer=_optimizers.to_popart(self._optimizer, self._weight_ids),
                    deviceInfo=self._device, userOptions=session_options)
                self._optimizer_signature = _optimizers.signature(self._optimizer)
            else:
                session = popart.InferenceSession(fnModel=model_bytes, dataFlow=flow,
                                                  deviceInfo=self._device,
                                                  userOptions=session_options)
            session.prepareDevice()
        except popart.popart_exception as e:
            if self._training and re.match(r"(SGD|Adam|Adaptive)\b", str(e)):
                raise Error(f"poptorch: optimizer {type(self._optimizer).__name__} cannot be "
                            f"mapped onto the PopART face: {e}") from e
            raise _popart_error(e, lowered) from e
        if o.random_seed is not None:
            session.setRandomSeed(o.random_seed)
        self._session = session
        self._attached = True
        self._input_shapes = [tuple(m.shape) for m in micro]
        self._anchors = session.initAnchorArrays()
        self.copyWeightsToDevice()

    def _session_options(self, lowered):
        o = self._options
        so = popart.SessionOptions()
        popart_options = dict(o._Popart.options)
        engine = dict(popart_options.pop("engineOptions", {}))
        so.engineOptions = engine
        if o.log_dir:
            so.logDir = o.log_dir
        if o.Training.gradient_accumulation > 1:
            so.enableGradientAccumulation = True
            so.accumulationFactor = o.Training.gradient_accumulation
        if o.replication_factor > 1:
            so.enableReplicatedGraphs = True
            so.replicatedGraphCount = o.replication_factor
        # PopTorch's default is the mean of accumulated (and replicated) gradients; PopART's is
        # their sum.
        reduction = o.Training.accumulation_and_replication_reduction_type
        so.accumulationAndReplicationReductionType = (popart.ReductionType.Mean if reduction ==
                                                      enums.ReductionType.Mean else
                                                      popart.ReductionType.Sum)
        strategy = o.Training.mean_reduction_strategy
        if strategy is not None:
            so.meanAccumulationAndReplicationReductionStrategy = (
                popart.MeanReductionStrategy.Running if strategy ==
                enums.MeanReductionStrategy.Running else popart.MeanReductionStrategy.Post)
        if lowered.num_ipus > 1:
            # Each block's ops on its IPU ("__ipu_number"); the stages ("__pipeline_stage") are
            # recorded on the operations, the steps run one after the other.
            so.virtualGraphMode = popart.VirtualGraphMode.Manual
            so.enablePipelining = self._training
        matmul, conv = {}, {}
        if o.Precision.partials_type:
            matmul["partialsType"] = conv["partialsType"] = o.Precision.partials_type
        so.matmulOptions = matmul
        so.convolutionOptions = conv
        if o.executable_cache_dir:
            so.enableEngineCaching = True
            so.cachePath = o.executable_cache_dir
        for key, value in popart_options.items():
            if not hasattr(so, key):
                self._warn_once(f"_Popart.set('{key}')")
                continue
            current = getattr(so, key)
            if isinstance(current, dict) and isinstance(value, dict):
                current = dict(current)
                current.update({str(k): str(v) for k, v in value.items()})
                value = current
            try:
                setattr(so, key, value)
            except TypeError as e:
                raise Error(f"poptorch: _Popart.set('{key}', {value!r}): {e}")
        for name in so.notApplying():
            self._warn_once(f"PopART option {name}")
        return so

    def _warn_once(self, name):
        if name not in self._warned:
            self._warned.add(name)
            logger.warning("%s is recorded but does not apply to a simulated IPU", name)

    def _warn_not_applying(self):
        for name in self._options.notApplying():
            self._warn_once(f"Options.{name}")
        if self._options.executable_cache_dir:
            self._warn_once("Options.enableExecutableCaching (POPTORCH_CACHE_DIR)")

    # --- weights ------------------------------------------------------------------------------
    def isCompiled(self):
        return self._session is not None

    def _require_compiled(self, what):
        if self._session is None:
            raise Error(f"poptorch: {what}: the model has not been compiled (call it or "
                        "compile() first)")

    def _weight_arrays(self):
        return {name: np.ascontiguousarray(t.detach().cpu().numpy() if t.dtype in _DEVICE_DTYPES
                                           else t.detach().cpu().float().numpy()
                                           if t.is_floating_point() else t.detach().cpu().numpy())
                for name, t in self._lowered.weights.items()}

    def _host_versions(self):
        return tuple(t._version for t in self._lowered.weights.values())

    def copyWeightsToDevice(self):
        """Copies the module's parameters to the device."""
        self._require_compiled("copyWeightsToDevice")
        self.__dict__["_dirty_host_weights"] = False
        arrays = self._weight_arrays()
        if arrays:
            self._session.writeWeights(popart.PyWeightsIO(arrays))
        self._session.weightsFromHost()
        self.__dict__["_uploaded_versions"] = self._host_versions()

    def copyWeightsToHost(self):
        """Copies the device's weights into the module's parameters."""
        self._require_compiled("copyWeightsToHost")
        self.__dict__["_dirty_host_weights"] = False
        self._session.weightsToHost()
        arrays = {name: np.empty(tuple(t.shape), _DEVICE_DTYPES.get(t.dtype, np.float32)
                                 if t.is_floating_point() else np.int32)
                  for name, t in self._lowered.weights.items()}
        if arrays:
            self._session.readWeights(popart.PyWeightsIO(arrays))
        with torch.no_grad(), _untraced():
            # copy_ (not .data's) bumps the tensors' version counters, which tell an inference
            # model of the same module that the host's weights changed.
            for name, t in self._lowered.weights.items():
                t.copy_(torch.from_numpy(arrays[name]).to(t.dtype))
        self.__dict__["_uploaded_versions"] = self._host_versions()

    def _copyWeightsToHostIfDirty(self):
        if self.__dict__.get("_dirty_host_weights"):
            self.copyWeightsToHost()

    # --- device -------------------------------------------------------------------------------
    def isAttachedToDevice(self):
        return self._session is not None and self._attached

    def detachFromDevice(self):
        """Frees the device (its weights are copied to the host first when training)."""
        self._require_compiled("detachFromDevice")
        if not self._attached:
            raise Error("poptorch: detachFromDevice: the model is not attached to a device")
        if self._training:
            self._copyWeightsToHostIfDirty()
        self._device.detach()
        self.__dict__["_attached"] = False

    def attachToDevice(self):
        """Attaches to the device again and copies the module's weights to it."""
        self._require_compiled("attachToDevice")
        if self._attached:
            raise Error("poptorch: attachToDevice: the model is already attached to a device")
        if not self._device.attach():
            raise Error("poptorch: attachToDevice: the device could not be attached")
        self.__dict__["_attached"] = True
        self.copyWeightsToDevice()

    def __del__(self):
        # A training model dropped without destroy() (a temporary, `trainingModel(m)(x, y)`)
        # still leaves its trained weights in the module.
        try:
            if self.__dict__.get("_training") and self.__dict__.get("_session") is not None:
                with _untraced():
                    self.destroy()
        except Exception:  # noqa: BLE001 (nothing to report to at interpreter exit)
            pass

    def destroy(self):
        """Frees the compiled model and its device."""
        if self._session is not None and self._training:
            self._copyWeightsToHostIfDirty()
        if self._training:
            _weights.detach(self._user_model, self)
        self.__dict__.update(_session=None, _device=None, _attached=False)

    # --- optimizer ----------------------------------------------------------------------------
    def setOptimizer(self, optimizer):
        """Replaces the optimizer; a compiled model's device optimizer is updated at once."""
        if not self._training:
            raise Error("poptorch: setOptimizer: an inference model has no optimizer")
        self.__dict__["_optimizer"] = optimizer
        if self._session is not None:
            self._update_optimizer()

    def _update_optimizer(self):
        signature = _optimizers.signature(self._optimizer)
        if signature == self._optimizer_signature:
            return
        try:
            self._session.updateOptimizerFromHost(
                _optimizers.to_popart(self._optimizer, self._weight_ids))
        except popart.popart_exception as e:
            raise Error(f"poptorch: the optimizer cannot be updated without recompiling: {e}")
        self.__dict__["_optimizer_signature"] = signature

    def cycleCount(self):
        """The IPU cycles of the last run (simulated), with Options.logCycleCount(True)."""
        if not self._options.log_cycle_count:
            raise Error("poptorch: cycleCount: cycle count logging is disabled; set "
                        "poptorch.Options().logCycleCount(True)")
        if self._session is None or not self._ran:
            raise Error("poptorch: cycleCount: run the model at least once first")
        return int(self._session.getCycleCount())

    # --- running ------------------------------------------------------------------------------
    def __call__(self, *args, **kwargs):
        args = self._bind(args, kwargs)
        if self._session is None:
            self._compile(args)
        elif not self._attached:
            self.attachToDevice()
        micro = self._micro_batches(args)
        shapes = [tuple(m.shape) for m in micro]
        if shapes != self._input_shapes:
            raise Error(f"poptorch: the inputs' micro-batch shapes {shapes} differ from the "
                        f"ones the model was compiled for {self._input_shapes}")
        if self._training:
            self._update_optimizer()
        elif self._host_versions() != self._uploaded_versions:
            logger.debug("the host's weights changed: copying them to the device")
            self.copyWeightsToDevice()
        inputs = {}
        for name, a in zip(self._lowered.inputs, args):
            array = a.numpy()
            inputs[name] = np.ascontiguousarray(array)
        anchors = self._anchors
        try:
            self._session.run(popart.PyStepIO(inputs, anchors))
        except popart.popart_exception as e:
            raise _popart_error(e, self._lowered) from e
        self.__dict__["_ran"] = True
        if self._training:
            self.__dict__["_dirty_host_weights"] = True
            for norm in self._lowered.batch_norms:
                channels = norm.compiled_mean.numel()
                norm.update(anchors[norm.mean_out].reshape(-1, channels),
                            anchors[norm.var_out].reshape(-1, channels))
        self._print_tensors(anchors)
        return self._outputs(anchors)

    def _print_tensors(self, anchors):
        for tensor, form in self._lowered.prints:
            if self._training and form["print_gradient"]:
                self._warn_once("ipu_print_tensor(print_gradient=True) (the gradient is not "
                                "printed)")
            values = anchors[tensor]
            per_step = values.reshape((self._options.device_iterations, -1) +
                                      tuple(self._session.getInfo(tensor).shape()))
            for step in per_step:
                for value in step:
                    text = _format_tensor(value, form)
                    print(f"{form['title']}: {text}" if form["title"] else text, flush=True)

    def _outputs(self, anchors):
        leaves = []
        for name in self._lowered.outputs:
            sample = tuple(self._session.getInfo(name).shape())
            value = anchors[name]
            count = value.size // max(int(np.prod(sample)), 1) if sample else value.size
            value = value.reshape((count,) + sample)
            if sample:
                value = value.reshape((count * sample[0],) + sample[1:])
            elif count == 1:
                value = value.reshape(())
            leaf = torch.from_numpy(value.copy())
            leaf.backward = _no_backward
            leaves.append(leaf)
        return _lowering.unflatten(self._lowered.structure, leaves)
