"""A PopART program in the style of Graphcore's PopART tutorials: a two-layer classifier built
with the Builder (Gemm, Relu, Softmax, nllloss), trained with SGD by a TrainingSession over
batchesPerStep batches per run, its weights written to an ONNX file, then run by an
InferenceSession from that file. The data are synthetic (two Gaussian blobs per class), so the
program needs no download.
"""
import sys

import numpy as np
import popart

BATCH_SIZE = 8
BATCHES_PER_STEP = 10
FEATURES = 16
HIDDEN = 32
CLASSES = 4
EPOCHS = 8

rng = np.random.default_rng(42)
centres = rng.normal(0.0, 3.0, size=(CLASSES, FEATURES)).astype(np.float32)


def make_data(samples):
    labels = rng.integers(0, CLASSES, size=samples).astype(np.int32)
    data = centres[labels] + rng.normal(0.0, 1.0, size=(samples, FEATURES)).astype(np.float32)
    return data.astype(np.float32), labels


def build_model():
    builder = popart.Builder()
    x = builder.addInputTensor(popart.TensorInfo("FLOAT", [BATCH_SIZE, FEATURES]), "x")
    labels = builder.addInputTensor(popart.TensorInfo("INT32", [BATCH_SIZE]), "labels")

    def gemm(inp, fan_in, fan_out, name):
        scale = np.sqrt(2.0 / fan_in)
        w = builder.addInitializedInputTensor(
            (rng.normal(0.0, scale, size=(fan_in, fan_out))).astype(np.float32), name + "_w")
        b = builder.addInitializedInputTensor(np.zeros(fan_out, np.float32), name + "_b")
        return builder.aiOnnx.gemm([inp, w, b])

    with builder.nameScope("hidden"):
        h = builder.aiOnnx.relu([gemm(x, FEATURES, HIDDEN, "fc1")])
    with builder.nameScope("classifier"):
        logits = gemm(h, HIDDEN, CLASSES, "fc2")
        probs = builder.aiOnnx.softmax([logits], axis=1)
    loss = builder.aiGraphcore.nllloss([probs, labels], reduction=popart.ReductionType.Mean)
    builder.addOutputTensor(probs)
    return builder, x, labels, probs, loss


def main():
    builder, x, labels, probs, loss = build_model()
    print("inputs:", [i for i in builder.getInputTensorIds() if i in (x, labels)])
    print("probs shape:", builder.getTensorShape(probs))

    device = popart.DeviceManager().createIpuModelDevice({"numIPUs": 1, "tilesPerIPU": 16})
    data_flow = popart.DataFlow(BATCHES_PER_STEP, {
        loss: popart.AnchorReturnType("ALL"),
        probs: popart.AnchorReturnType("FINAL")
    })
    options = popart.SessionOptions()
    options.engineOptions = {"autoReport.all": "true", "autoReport.directory": "report"}
    training = popart.TrainingSession(fnModel=builder.getModelProto(),
                                      dataFlow=data_flow,
                                      loss=loss,
                                      optimizer=popart.SGD({"defaultLearningRate": (0.05, False)}),
                                      userOptions=options,
                                      deviceInfo=device)
    training.prepareDevice()
    training.weightsFromHost()
    anchors = training.initAnchorArrays()
    print("loss anchor shape:", list(anchors[loss].shape))
    print("probs anchor shape:", list(anchors[probs].shape))

    train_x, train_y = make_data(BATCH_SIZE * BATCHES_PER_STEP)
    step_x = train_x.reshape(BATCHES_PER_STEP, BATCH_SIZE, FEATURES)
    step_y = train_y.reshape(BATCHES_PER_STEP, BATCH_SIZE)
    losses = []
    for _ in range(EPOCHS):
        training.run(popart.PyStepIO({x: step_x, labels: step_y}, anchors))
        losses.append(float(np.mean(anchors[loss])))
    print("loss decreased:", losses[-1] < 0.5 * losses[0])

    training.modelToHost("trained.onnx")

    inference_flow = popart.DataFlow(1, {probs: popart.AnchorReturnType("ALL")})
    inference = popart.InferenceSession(fnModel="trained.onnx",
                                        dataFlow=inference_flow,
                                        deviceInfo=popart.DeviceManager().createIpuModelDevice(
                                            {"numIPUs": 1, "tilesPerIPU": 16}))
    inference.prepareDevice()
    inference.weightsFromHost()
    test_x, test_y = make_data(BATCH_SIZE)
    out = inference.initAnchorArrays()
    inference.run(popart.PyStepIO({x: test_x}, out))
    accuracy = float(np.mean(np.argmax(out[probs], axis=1) == test_y))
    print("test accuracy >= 0.75:", accuracy >= 0.75)
    return 0


if __name__ == "__main__":
    sys.exit(main())
