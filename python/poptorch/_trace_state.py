"""What poptorch records while torch traces a model for export: the blocks (BeginBlock,
Block), each entered as a tracing scope named `__poptorch_block<k>__` so that the ONNX node
names of its ops carry it (torch names nodes after their scopes). _lowering reads the blocks
back from the names and removes the marker from them. Outside an export nothing is recorded."""
import torch

BLOCK_SEGMENT = "__poptorch_block{}__"

_blocks = None  # list of (user_id, ipu_id) while exporting, else None


def begin_export():
    global _blocks
    _blocks = []


def end_export():
    """The blocks recorded by the export that ends."""
    global _blocks
    blocks, _blocks = _blocks or [], None
    return blocks


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
