"""Dropout in a TrainingSession draws a new mask every batch from the session's seed
(Session.setRandomSeed): the same seed repeats the masks, another seed changes them, and the
share of dropped elements is the ratio."""
import numpy as np

import popart

RATIO = 0.3
BATCHES = 3


def _masks(seed):
    builder = popart.Builder()
    x = builder.addInputTensor(popart.TensorInfo("FLOAT", [1000]), "x")
    w = builder.addInitializedInputTensor(np.ones(1000, np.float32), "w")
    dropped = builder.aiOnnx.dropout([builder.aiOnnx.mul([x, w])], 1, RATIO)[0]
    loss = builder.aiGraphcore.l1loss([dropped], 1.0)
    session = popart.TrainingSession(
        fnModel=builder.getModelProto(),
        dataFlow=popart.DataFlow(BATCHES, {dropped: popart.AnchorReturnType("ALL")}), loss=loss,
        optimizer=popart.ConstSGD(0.0),
        deviceInfo=popart.DeviceManager().createIpuModelDevice({"tilesPerIPU": 4}))
    session.prepareDevice()
    session.weightsFromHost()
    session.setRandomSeed(seed)
    anchors = session.initAnchorArrays()
    session.run(popart.PyStepIO({x: np.ones((BATCHES, 1000), np.float32)}, anchors))
    return anchors[dropped]


def test_dropout_masks_change_every_batch_and_follow_the_seed():
    first = _masks(5)
    assert first.shape == (BATCHES, 1000)
    dropped = (first == 0).mean(axis=1)
    np.testing.assert_allclose(dropped, RATIO, atol=0.05)
    kept = first[first != 0]
    np.testing.assert_allclose(kept, 1.0 / (1.0 - RATIO), rtol=1e-6)
    for b in range(1, BATCHES):
        assert not np.array_equal(first[0] == 0, first[b] == 0), f"batch {b} repeats batch 0"
    np.testing.assert_array_equal(_masks(5), first)
    assert not np.array_equal(_masks(6) == 0, first == 0)
