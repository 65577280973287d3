"""libpvti: host tracepoints for Python programs, as Graphcore's libpvti module provides them.

Tracepoints land in the same trace file, on the same clock, as the C++ pvti tracepoints of the
process. Tracing is enabled by PVTI_OPTIONS exactly as for C++, e.g.
PVTI_OPTIONS='{"enable":"true","directory":"traces"}'; unset, nothing is recorded and no file
is written.

    import libpvti as pvti
    channel = pvti.createTraceChannel("train")
    with pvti.Tracepoint(channel, "epoch"):
        ...
    @pvti.Tracepoint(channel, "step")
    def step(): ...
    pvti.Tracepoint.event(channel, "saved", pvti.createJsonMetadata('{"epoch": 3}'))
    loss = pvti.Graph("loss", "").addSeries("train"); loss.add(0.5)
"""

import functools as _functools
import types as _types

from . import _libpvti
from ._libpvti import (Graph, HeatmapDouble, HeatmapUInt64, Metadata, Series, TraceChannel,
                       checkTraceChannel, closeTrace, createJsonMetadata, disableTraceChannel,
                       enableTraceChannel, getCurrentTraceFilename, listTraceChannel, traceDrivers,
                       traceFramework, tracePoplar)

__all__ = ["TraceChannel", "Tracepoint", "Graph", "Series", "HeatmapDouble", "HeatmapUInt64",
           "Metadata", "createJsonMetadata",
           "createTraceChannel", "instrument", "instrument_fn", "traceDrivers", "tracePoplar",
           "traceFramework", "enableTraceChannel", "disableTraceChannel", "checkTraceChannel",
           "listTraceChannel", "getCurrentTraceFilename", "closeTrace", "tilescope"]


def createTraceChannel(name):
    """A named channel of tracepoints (usually one per component)."""
    return TraceChannel(name)


class Tracepoint:
    """A traced interval on the calling thread: a context manager (`with Tracepoint(ch, "x"):`)
    or a decorator (`@Tracepoint(ch, "x")`). The static begin/end mark intervals that do not
    follow a block (they must nest on each thread), event() marks an instant. Each takes optional
    `metadata` (a Metadata, e.g. from createJsonMetadata), attached to the interval's begin, to the
    end given to end(), or to the instant."""

    __slots__ = ("channel", "label", "metadata")

    def __init__(self, channel, label, metadata=None):
        _check_metadata(metadata)
        self.channel = channel
        self.label = label
        self.metadata = metadata

    def __enter__(self):
        _libpvti.begin(self.channel, self.label, self.metadata)
        return self

    def __exit__(self, exc_type, exc, tb):
        _libpvti.end(self.channel, self.label)
        return False

    def __call__(self, function):
        channel, label, metadata = self.channel, self.label, self.metadata

        @_functools.wraps(function)
        def traced(*args, **kwargs):
            _libpvti.begin(channel, label, metadata)
            try:
                return function(*args, **kwargs)
            finally:
                _libpvti.end(channel, label)

        return traced

    @staticmethod
    def begin(channel, label, metadata=None):
        _libpvti.begin(channel, label, _check_metadata(metadata))

    @staticmethod
    def end(channel, label, metadata=None):
        _libpvti.end(channel, label, _check_metadata(metadata))

    @staticmethod
    def event(channel, label, metadata=None):
        _libpvti.event(channel, label, _check_metadata(metadata))


def _check_metadata(metadata):
    if metadata is not None and not isinstance(metadata, Metadata):
        raise TypeError("libpvti: metadata must be a libpvti.Metadata (for example from "
                        "createJsonMetadata) or None, not %s" % type(metadata).__name__)
    return metadata


def instrument_fn(channel, metadata=None):
    """A decorator tracing every call of the function as an interval on `channel`, labelled with
    the function's qualified name (`Class.method` for a method), with optional `metadata` on each
    call's begin."""

    def decorate(function):
        return Tracepoint(channel, function.__qualname__, metadata)(function)

    return decorate


def instrument(obj, methods, channel):
    """Replaces each named method of `obj` (an instance, class or module) by one traced as an
    interval labelled with the method's name. Python looks special methods (`__len__`,
    `__getitem__`, ...) up on the type, so for an instance those are installed on a subclass made
    for that one object, which becomes its class: `len(obj)` and `obj[i]` are traced too."""
    on_instance = not isinstance(obj, (type, _types.ModuleType))
    special = [n for n in methods if on_instance and n.startswith("__") and n.endswith("__")]
    if special:
        cls = type(obj)
        members = {n: Tracepoint(channel, n)(getattr(cls, n)) for n in special}
        members.update(__module__=cls.__module__, __qualname__=cls.__qualname__)
        obj.__class__ = type(cls.__name__, (cls,), members)
    for name in methods:
        if name not in special:
            setattr(obj, name, Tracepoint(channel, name)(getattr(obj, name)))
    return obj


class tilescope:
    """TileScope additions (not in Graphcore's libpvti): the session's file, flush and close."""

    traceFile = staticmethod(_libpvti.traceFile)
    flush = staticmethod(_libpvti.flush)
    close = staticmethod(_libpvti.close)
