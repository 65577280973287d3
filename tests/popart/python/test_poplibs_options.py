"""PopLibs options reach the MatMul of a PopART session: SessionOptions.matmulOptions and
partialsTypeMatMuls, and a node's Builder.setAvailableMemoryProportion (what PopTorch's
set_available_memory and Precision.setPartialsType set); the report's matMul records them and
the plan they give costs differently."""
import glob
import json

import numpy as np

import popart


def _run(tmp_path, tag, proportion=None, matmul_options=None, partials=""):
    builder = popart.Builder()
    x = builder.addInputTensor(popart.TensorInfo("FLOAT", [64, 256]), "x")
    w = builder.addInitializedInputTensor(np.ones((256, 256), np.float32), "w")
    y = builder.aiOnnx.matmul([x, w], "mm")
    if proportion is not None:
        builder.setAvailableMemoryProportion(y, proportion)
    options = popart.SessionOptions()
    report_dir = tmp_path / tag
    options.engineOptions = {"autoReport.all": "true", "autoReport.directory": str(report_dir)}
    options.matmulOptions = matmul_options or {}
    options.partialsTypeMatMuls = partials
    session = popart.InferenceSession(
        fnModel=builder.getModelProto(),
        dataFlow=popart.DataFlow(1, {y: popart.AnchorReturnType("ALL")}),
        deviceInfo=popart.DeviceManager().createIpuModelDevice({"tilesPerIPU": 16}),
        userOptions=options)
    session.prepareDevice()
    session.weightsFromHost()
    anchors = session.initAnchorArrays()
    session.run(popart.PyStepIO({x: np.ones((64, 256), np.float32)}, anchors))
    np.testing.assert_allclose(anchors[y], 256.0)
    import pva
    report = pva.openReport(glob.glob(str(report_dir / "**" / "profile.pop"), recursive=True)[0])
    matmuls = [op for op in pva.OperationAnalysis(report).operations if op.name == "matMul"]
    assert len(matmuls) == 1
    recorded = json.loads(matmuls[0].debugContext.json)["args"]["options"]
    return session.getCycleCount(), recorded


def test_matmul_options_reach_poplin(tmp_path):
    default_cycles, default_options = _run(tmp_path, "default")
    assert default_options == {}
    node_cycles, node_options = _run(tmp_path, "node", proportion=0.05)
    assert float(node_options["availableMemoryProportion"]) == 0.05
    _, session_options = _run(tmp_path, "session",
                              matmul_options={"availableMemoryProportion": "0.05"})
    assert session_options == {"availableMemoryProportion": "0.05"}
    partials_cycles, partials_options = _run(tmp_path, "partials", partials="half")
    assert partials_options == {"partialsType": "half"}
    assert node_cycles != default_cycles and partials_cycles != default_cycles
