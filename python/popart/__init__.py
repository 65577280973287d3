"""PopART's Python API over TileScope's popart library: build or load an ONNX model, compile it
for a simulated IPU with an InferenceSession or TrainingSession, and run it. The names are
PopART's; the native part is the `popart_core` extension, wrapped here as PopART's own package
wraps it (Builder, the sessions and initAnchorArrays are Python)."""
from popart.popart_core import *  # noqa: F401,F403 (the package's public names)
from popart.popart_core import (_BuilderCore, _InferenceSessionCore,  # noqa: F401
                                _TrainingSessionCore)

# The op-set versions a Builder uses when the program does not choose one (PopART's defaults).
defaultAiOnnxOpset = 11
defaultAiGraphcoreOpset = 1

from popart.builder import Builder  # noqa: E402
from popart.session import (InferenceSession, OutOfMemoryException,  # noqa: E402
                            TrainingSession)
