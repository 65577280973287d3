"""What poptorch records while torch traces a model for export: the ipu_print_tensor formats
and the blocks (BeginBlock, Block), each entered as a tracing scope named `__poptorch_block<k>__` so that the ONNX node
names of its ops carry it (torch names nodes after their scopes). _lowering reads the blocks
back from the names and removes the marker from them. Outside an export nothing is recorded."""
import torch

BLOCK_SEGMENT = "__poptorch_block{}__"

_blocks = None  # list of (user_id, ipu_id) while exporting, else None
_prints = None  # the ipu_print_tensor calls' formats while exporting


def begin_export():
    global _blocks, _prints
    _blocks = []
    _prints = []


def end_export():
    """The blocks and the print formats recorded by the export that ends."""
    global _blocks, _prints
    blocks, prints = _blocks or [], _prints or []
    _blocks = _prints = None
    return blocks, prints


def add_print(settings):
    """Records an ipu_print_tensor call's format; returns its index (its marker's title)."""
    if _prints is None:
        return -1
    _prints.append(settings)
    return len(_prints) - 1


def push_block(user_id, ipu_id):
    state = torch._C._get_tracing_state()
    if _blocks is None or state is None:
        return None
    _blocks.append((user_id, ipu_id))
    name = BLOCK_SEGMENT.format(len(_blocks) - 1)
    state.push_scope("poptorch::" + name)
    return name


def pop_block():
    state = torch._C._get_tracing_state()
    if state is not None:
        state.pop_scope()
