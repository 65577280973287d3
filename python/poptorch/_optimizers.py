"""torch optimizers (torch.optim's and poptorch.optim's) as the PopART face's optimizers: the
hyperparameters of each parameter group, by the ONNX weight names of its parameters. Groups
other than the first get their values with insertSpecific."""
import torch

import popart

from . import optim
from .errors import Error


def _values(optimizer, group):
    """name -> value of the PopART hyperparameters of one param group."""
    lr = float(group["lr"])
    wd = float(group.get("weight_decay", 0.0))
    if isinstance(optimizer, optim.LAMB):
        b1, b2 = group["betas"]
        return {"learningRate": lr, "weightDecay": wd, "beta1": float(b1), "beta2": float(b2),
                "eps": float(group["eps"])}
    if isinstance(optimizer, torch.optim.SGD):
        return {"learningRate": lr, "weightDecay": wd, "momentum": float(group["momentum"]),
                "dampening": float(group["dampening"]),
                "velocityScaling": float(group.get("velocity_scaling") or 1.0),
                "nesterov": 1.0 if group["nesterov"] else 0.0}
    if isinstance(optimizer, (torch.optim.Adam, torch.optim.AdamW)):
        if group.get("amsgrad"):
            raise Error(f"poptorch: {type(optimizer).__name__}(amsgrad=True) is not supported")
        b1, b2 = group["betas"]
        return {"learningRate": lr, "weightDecay": wd, "beta1": float(b1), "beta2": float(b2),
                "eps": float(group["eps"])}
    if isinstance(optimizer, torch.optim.RMSprop):
        return {"learningRate": lr, "weightDecay": wd, "alpha": float(group["alpha"]),
                "momentum": float(group["momentum"]), "eps": float(group["eps"])}
    raise Error(f"poptorch: optimizer {type(optimizer).__name__} is not supported (SGD, Adam, "
                "AdamW, RMSprop and LAMB are)")


# Hyperparameters that change the compiled update rather than a value it reads.
_CONST = {"nesterov"}


def signature(optimizer):
    """What identifies the PopART optimizer `optimizer` maps to (changes need an update)."""
    return (type(optimizer), tuple(tuple(sorted(_values(optimizer, g).items()))
                                   for g in optimizer.param_groups),
            float(getattr(optimizer, "loss_scaling", None) or 1.0))


def _missing(name, what):
    return Error(f"poptorch: optimizer {name} needs the PopART face's {what}, which this "
                 "build does not have")


def _accumulator_types(optimizer, count):
    """PopART's accum and accl types (`count` of them) of a poptorch.optim optimizer's
    accum_type, first_order_momentum_accum_type and second_order_momentum_accum_type (float32
    unless given, as in PopTorch); the face keeps float16 weights' state in them."""
    names = ["accum_type", "first_order_momentum_accum_type", "second_order_momentum_accum_type"]
    names += names[-1:] * (count - len(names))
    types = []
    for name in names[:count]:
        dtype = getattr(optimizer, name, None)
        if dtype not in (None, torch.float32, torch.float16):
            raise Error(f"poptorch: {type(optimizer).__name__}({name}={dtype}): accumulators are "
                        "torch.float32 or torch.float16")
        types.append(popart.DataType.FLOAT16 if dtype == torch.float16 else
                     popart.DataType.FLOAT)
    return types


def to_popart(optimizer, weight_names):
    """The popart optimizer for `optimizer`; `weight_names` maps id(parameter) -> ONNX name."""
    groups = optimizer.param_groups
    defaults = _values(optimizer, groups[0])
    loss_scaling = float(getattr(optimizer, "loss_scaling", None) or 1.0)
    params = {"default" + k[0].upper() + k[1:]: (v, k in _CONST) for k, v in defaults.items()}
    params["lossScaling"] = (loss_scaling, False)
    name = type(optimizer).__name__
    if isinstance(optimizer, optim.LAMB):
        if groups[0].get("max_weight_norm") is not None:
            params["maxWeightNorm"] = (float(groups[0]["max_weight_norm"]), False)
        mode = popart.AdamMode.Lamb if optimizer.bias_correction else popart.AdamMode.LambNoBias
        result = popart.Adam(params, mode, popart.WeightDecayMode.Decay,
                             *_accumulator_types(optimizer, 3))
    elif isinstance(optimizer, torch.optim.SGD):
        result = popart.SGD(params)
    elif isinstance(optimizer, (torch.optim.Adam, torch.optim.AdamW)):
        decay = (popart.WeightDecayMode.Decay if isinstance(optimizer, torch.optim.AdamW) else
                 popart.WeightDecayMode.L2Regularization)
        result = popart.Adam(params, popart.AdamMode.Adam, decay,
                             *_accumulator_types(optimizer, 3))
    else:  # RMSprop
        if not hasattr(popart, "Adaptive") or not hasattr(popart, "AdaptiveMode"):
            raise _missing(name, "popart.Adaptive optimizer (RMSProp)")
        centered = bool(groups[0].get("centered"))
        mode = popart.AdaptiveMode.CenteredRMSProp if centered else popart.AdaptiveMode.RMSProp
        result = popart.Adaptive(params, mode, popart.WeightDecayMode.L2Regularization,
                                 *_accumulator_types(optimizer, 4))
    for group in groups[1:]:
        specific = {k: (v, k in _CONST) for k, v in _values(optimizer, group).items()}
        for p in group["params"]:
            if id(p) in weight_names:
                result.insertSpecific(weight_names[id(p)], specific)
    return result
