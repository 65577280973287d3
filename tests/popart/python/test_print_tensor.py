"""aiGraphcore.printtensor (PopTorch's ipu_print_tensor) prints the tensor where it is computed
and, with print_gradient, its gradient; aiGraphcore.nop passes its input and gradient on."""
import numpy as np

import popart


def test_printtensor_prints_the_value_and_its_gradient(capfd):
    builder = popart.Builder()
    x = builder.addInputTensor(popart.TensorInfo("FLOAT", [3]), "x")
    w = builder.addInitializedInputTensor(np.array([1, 2, 3], np.float32), "w")
    printed = builder.aiGraphcore.printtensor([builder.aiOnnx.mul([x, w])], title="product")
    out = builder.aiGraphcore.nop([printed])
    loss = builder.aiGraphcore.l1loss([out], 1.0, popart.ReductionType.Sum)
    session = popart.TrainingSession(
        fnModel=builder.getModelProto(),
        dataFlow=popart.DataFlow(1, {out: popart.AnchorReturnType("ALL")}), loss=loss,
        optimizer=popart.ConstSGD(0.5),
        deviceInfo=popart.DeviceManager().createIpuModelDevice({"tilesPerIPU": 4}))
    session.prepareDevice()
    session.weightsFromHost()
    anchors = session.initAnchorArrays()
    session.run(popart.PyStepIO({x: np.array([1, -1, 2], np.float32)}, anchors))
    np.testing.assert_allclose(anchors[out], [1, -2, 6])
    printed_lines = capfd.readouterr().out.splitlines()
    assert any(line.startswith("product: [1.0") and "-2.0" in line and "6.0" in line
               for line in printed_lines), printed_lines
    assert any(line.startswith("Gradient of product: [1.0") for line in printed_lines)
    # The gradient went through nop and printtensor to the weight: w -= 0.5 * sign(x * w) * x.
    session.weightsToHost()
    trained = np.zeros(3, np.float32)
    session.readWeights(popart.PyWeightsIO({w: trained}))
    np.testing.assert_allclose(trained, [0.5, 1.5, 2.0])
