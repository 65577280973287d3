"""Parameters that live on the device while a trainingModel trains, copied back into the torch
module when the host reads them (as PopTorch does): the module's class is swapped for a subclass
whose `_parameters`, `_buffers` and `forward` accesses, and each parameter's class for one whose
attribute accesses, first copy the device's weights to the host if a run changed them. The
executor is held weakly, so the module does not keep it alive."""
import weakref

import torch

_wrapper_types = {}


def _executor_of(obj):
    ref = object.__getattribute__(obj, "__dict__").get("_poptorch_executor")
    return ref() if ref is not None else None


def _sync(executor):
    if executor is not None:
        executor._copyWeightsToHostIfDirty()


class _PoptorchParameter(torch.nn.Parameter):
    """A parameter of a model being trained on the device (see the module's comment)."""

    def __getattribute__(self, name):
        if name != "__dict__":
            _sync(_executor_of(self))
        return super().__getattribute__(name)

    def __reduce_ex__(self, protocol):
        # Pickled and copied as a plain parameter holding the device's values.
        _sync(_executor_of(self))
        return (torch.nn.Parameter, (self.data.detach().clone(), self.requires_grad))

    def __deepcopy__(self, memo):
        _sync(_executor_of(self))
        result = torch.nn.Parameter(self.data.clone(), self.requires_grad)
        memo[id(self)] = result
        return result

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        # Looking __torch_function__ up on an argument passes through __getattribute__ above,
        # which is what makes torch.equal(p, q) and the like see fresh values.
        return super().__torch_function__(func, types, args, kwargs or {})


def _rebuild_module(cls, state):
    module = cls.__new__(cls)
    module.__dict__.update(state)
    return module


def _module_wrapper(cls):
    """The subclass of module class `cls` whose accesses to its parameters copy weights back."""
    if cls in _wrapper_types:
        return _wrapper_types[cls]

    class PoptorchModel(cls):

        def __getattribute__(self, name):
            if name in ("_parameters", "_buffers", "forward"):
                _sync(_executor_of(self))
            return super().__getattribute__(name)

        def __reduce_ex__(self, protocol):
            # Pickled (torch.save, copy.deepcopy) as the user's own class with the device's
            # weights: the wrapper class cannot be imported where the pickle is loaded.
            _sync(_executor_of(self))
            state = dict(self.__dict__)
            state.pop("_poptorch_executor", None)
            return (_rebuild_module, (cls, state))

    PoptorchModel.__name__ = PoptorchModel.__qualname__ = "Poptorch" + cls.__name__
    _wrapper_types[cls] = PoptorchModel
    return PoptorchModel


def attach(model, executor):
    """Makes `model`'s parameters copy back from `executor` when read."""
    ref = weakref.ref(executor)
    model.__dict__["_poptorch_executor"] = ref
    if not type(model).__name__.startswith("Poptorch"):
        model.__class__ = _module_wrapper(type(model))
    for p in model.parameters():
        if type(p) is torch.nn.Parameter:
            p.__class__ = _PoptorchParameter
        p.__dict__["_poptorch_executor"] = ref


def detach(model, executor):
    """Restores `model` and its parameters to their own classes, if `executor` is the one they
    copy back from (a later trainingModel of the same module may have taken them over)."""
    if _executor_of(model) is not executor:
        return
    for p in list(object.__getattribute__(model, "_parameters").values()) + [
            p for m in model.modules() if m is not model for p in m._parameters.values()]:
        if p is not None and type(p) is _PoptorchParameter:
            p.__dict__.pop("_poptorch_executor", None)
            p.__class__ = torch.nn.Parameter
    model.__dict__.pop("_poptorch_executor", None)
    if type(model) in _wrapper_types.values():
        model.__class__ = type(model).__mro__[1]
