"""The ONNX project's backend node tests (Debian's libonnx-testdata), run by onnx.backend.test's
runner against the `popart` backend.

Only the node tests of the op groups in TILESCOPE_ONNX_GROUPS (comma-separated names of
op_groups.GROUPS; all groups when unset) are collected, so that ctest can run the groups as
separate entries in parallel. Tests in exclusions.EXCLUSIONS are skipped with their reason.
"""
import os
import unittest

import numpy as np
import onnx.backend.test

import exclusions
import op_groups
from backend import PopartBackend


class PopartBackendTest(onnx.backend.test.BackendTest):
    """The runner, with its output comparison written for current numpy: onnx 1.12's compares
    against `np.object`, which numpy 1.24 removed (every comparison would raise)."""

    @classmethod
    def assert_similar_outputs(cls, ref_outputs, outputs, rtol, atol):
        np.testing.assert_equal(len(outputs), len(ref_outputs))
        for ref, out in zip(ref_outputs, outputs):
            if isinstance(out, (list, tuple)):
                cls.assert_similar_outputs(ref, out, rtol, atol)
                continue
            np.testing.assert_equal(out.dtype, ref.dtype)
            if ref.dtype == object:
                np.testing.assert_array_equal(out, ref)
            else:
                np.testing.assert_allclose(out, ref, rtol=rtol, atol=atol)


def _selected_groups():
    value = os.environ.get("TILESCOPE_ONNX_GROUPS", "")
    if not value:
        return set(op_groups.GROUPS) | {op_groups.OUT_OF_SCOPE}
    groups = {g.strip() for g in value.split(",") if g.strip()}
    unknown = groups - set(op_groups.GROUPS) - {op_groups.OUT_OF_SCOPE}
    if unknown:
        raise ValueError(f"TILESCOPE_ONNX_GROUPS: unknown op groups {sorted(unknown)}; known: "
                         f"{sorted(op_groups.GROUPS)}")
    return groups


def _node_tests():
    case = PopartBackendTest(PopartBackend, __name__).test_cases["OnnxBackendNodeModelTest"]
    groups = _selected_groups()
    for attr in [a for a in vars(case) if a.startswith("test_")]:
        # The runner makes a `_cpu` and a `_cuda` test of each model; the backend runs `CPU`.
        test = attr[:-len("_cpu")] if attr.endswith("_cpu") else None
        if test is None or op_groups.test_group(test) not in groups:
            delattr(case, attr)
            continue
        reason = exclusions.reason(test)
        if reason is not None:
            setattr(case, attr, unittest.skip(f"excluded: {reason}")(getattr(case, attr)))
    return case


OnnxBackendNodeModelTest = _node_tests()
