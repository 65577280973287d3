// Sessions: anchor return types (ALL, FINAL, EVERYN, SUM) over batchesPerStep, the report of a
// session (every ONNX node an operation of layer "PopART", profile.pop where autoReport says),
// and errors that name the op, the node and the opset.
#include "PopartHarness.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <popart/error.hpp>

using namespace popart;
using popart_test::smallDevice;

namespace {

// y = x * 2 + 1 over batchesPerStep batches of {2} with the anchor returned as `art`.
std::vector<float> runAnchor(const AnchorReturnType& art, int bps, std::size_t anchorElements) {
    auto builder = Builder::create();
    auto onnx = builder->aiOnnxOpset11();
    TensorId x = builder->addInputTensor(TensorInfo("FLOAT", Shape{2}), "x");
    float two = 2.0f, one = 1.0f;
    TensorId k2 = onnx.constant(ConstVoidData(&two, TensorInfo("FLOAT", Shape{})), "two");
    TensorId k1 = onnx.constant(ConstVoidData(&one, TensorInfo("FLOAT", Shape{})), "one");
    TensorId y = onnx.add({onnx.mul({x, k2}), k1}, "y");
    builder->addOutputTensor(y);
    DataFlow flow(bps, {{y, art}});
    auto session =
        InferenceSession::createFromOnnxModel(builder->getModelProto(), flow, smallDevice());
    session->prepareDevice();
    session->weightsFromHost();
    std::vector<float> xs(std::size_t(bps) * 2), out(anchorElements);
    for (std::size_t i = 0; i < xs.size(); ++i)
        xs[i] = float(i);
    NDArrayWrapper<float> xa(xs.data(), Shape{bps, 2});
    NDArrayWrapper<float> ya(out.data(), Shape{int64_t(anchorElements)});
    StepIO io({{x, &xa}}, {{y, &ya}});
    session->run(io);
    return out;
}

} // namespace

TEST_CASE("Anchors: ALL, FINAL, EVERYN and SUM over batchesPerStep", "[popart][session]") {
    // Batch b holds x = {2b, 2b + 1}, so y = {4b + 1, 4b + 3}.
    CHECK(runAnchor(AnchorReturnType("ALL"), 4, 8) ==
          std::vector<float>{1, 3, 5, 7, 9, 11, 13, 15});
    CHECK(runAnchor(AnchorReturnType("FINAL"), 4, 2) == std::vector<float>{13, 15});
    CHECK(runAnchor(AnchorReturnType("EVERYN", 2), 4, 4) == std::vector<float>{5, 7, 13, 15});
    CHECK(runAnchor(AnchorReturnType("SUM"), 4, 2) == std::vector<float>{28, 36});
    CHECK_THROWS_AS(AnchorReturnType("SOMETIMES"), popart::error);
    CHECK_THROWS_AS(DataFlow(4, {{"y", AnchorReturnType("EVERYN", 3)}}), popart::error);
}

TEST_CASE("Session report: ONNX nodes are operations of layer PopART in profile.pop",
          "[popart][session]") {
    namespace fs = std::filesystem;
    const fs::path dir = fs::path("popart-report-test");
    fs::remove_all(dir);
    auto builder = Builder::create();
    auto onnx = builder->aiOnnxOpset13();
    TensorId x = builder->addInputTensor(TensorInfo("FLOAT", Shape{4, 8}), "x");
    std::vector<float> wv(8 * 8, 0.25f);
    TensorId w = builder->addInitializedInputTensor(
        ConstVoidData(wv.data(), TensorInfo("FLOAT", Shape{8, 8})), "w");
    TensorId h = onnx.matmul({x, w}, "dense");
    TensorId y = onnx.softmax({onnx.tanh({h}, "act")}, -1, "probs");
    builder->addOutputTensor(y);
    SessionOptions opts;
    opts.engineOptions = {{"autoReport.all", "true"}, {"autoReport.directory", dir.string()}};
    opts.enableOutlining = false; // does not apply: recorded
    DataFlow flow(1, {{y, AnchorReturnType("ALL")}});
    auto session = InferenceSession::createFromOnnxModel(builder->getModelProto(), flow,
                                                         smallDevice(), InputShapeInfo(), opts);
    session->prepareDevice();
    session->weightsFromHost();
    std::vector<float> xs(32, 0.5f), ys(32);
    NDArrayWrapper<float> xa(xs.data(), Shape{4, 8});
    NDArrayWrapper<float> ya(ys.data(), Shape{4, 8});
    StepIO io({{x, &xa}}, {{y, &ya}});
    session->run(io);
    CHECK(ys[0] == Approx(1.0f / 8));
    // In a subfolder named after the session, as Poplar writes a named engine's report.
    CHECK(session->getReportPath() == (dir / "inference" / "profile.pop").string());
    CHECK(fs::exists(dir / "inference" / "profile.pop"));
    bool pvti = false; // the process's host trace, in autoReport.directory
    for (const auto& e : fs::directory_iterator(dir))
        pvti = pvti || e.path().extension() == ".pvti";
    CHECK(pvti);
    CHECK(session->getSummaryReport().find("Memory") != std::string::npos);

    pva::Report report = session->getReport();
    std::map<std::string, std::string> popartOps; // node name -> json
    for (const auto& op : report.compilation().debugContexts())
        if (op.layer() == "PopART")
            popartOps[op.debugPath()] = op.json();
    REQUIRE(popartOps.count("dense"));
    CHECK(popartOps["dense"].find("\"onnxOpType\":\"MatMul\"") != std::string::npos);
    CHECK(popartOps["dense"].find("\"w\"") != std::string::npos);
    REQUIRE(popartOps.count("probs"));
    CHECK(popartOps["probs"].find("\"axis\":-1") != std::string::npos);
    CHECK(popartOps.count("act"));
    REQUIRE(popartOps.count("session/inference"));
    CHECK(popartOps["session/inference"].find("enableOutlining") != std::string::npos);
}

TEST_CASE("Errors name the op, the node and the opset", "[popart][errors]") {
    auto builder = Builder::create();
    auto onnx = builder->aiOnnxOpset11();
    TensorId x = builder->addInputTensor(TensorInfo("FLOAT", Shape{2, 2}), "x");
    TensorId y = builder->customOp("", "Hardmax", 11, {x}, 1, {}, "hm")[0];
    builder->addOutputTensor(y);
    DataFlow flow(1, {{y, AnchorReturnType("ALL")}});
    auto session =
        InferenceSession::createFromOnnxModel(builder->getModelProto(), flow, smallDevice());
    try {
        session->prepareDevice();
        FAIL("an unsupported op compiled");
    } catch (const popart::error& e) {
        const std::string what = e.what();
        CHECK(what.find("Hardmax") != std::string::npos);
        CHECK(what.find("'hm'") != std::string::npos);
        CHECK(what.find("opset 11") != std::string::npos);
    }

    // An attribute value the lowering does not support.
    auto b2 = Builder::create();
    TensorId a = b2->addInputTensor(TensorInfo("FLOAT", Shape{2, 3}), "a");
    TensorId l = b2->addInputTensor(TensorInfo("INT32", Shape{2}), "l");
    TensorId loss =
        b2->aiOnnxOpset12().negativeloglikelihoodloss({a, l}, "average", OptionalInt(), "nll");
    DataFlow f2(1, {{loss, AnchorReturnType("ALL")}});
    auto s2 = InferenceSession::createFromOnnxModel(b2->getModelProto(), f2, smallDevice());
    CHECK_THROWS_WITH(s2->prepareDevice(),
                      Catch::Contains("NegativeLogLikelihoodLoss") && Catch::Contains("'nll'") &&
                          Catch::Contains("opset 12") && Catch::Contains("reduction 'average'"));

    // Bad input: not a model, an unknown anchor, a shape given at run time, a wrong opset use.
    CHECK_THROWS_WITH(
        InferenceSession::createFromOnnxModel("no such model", DataFlow(1), smallDevice()),
        Catch::Contains("neither a readable file nor a serialized ONNX ModelProto"));
    CHECK_THROWS_WITH(InferenceSession::createFromOnnxModel(
                          builder->getModelProto(),
                          DataFlow(1, {{"nope", AnchorReturnType("ALL")}}), smallDevice()),
                      Catch::Contains("anchor 'nope'"));
    CHECK_THROWS_WITH(b2->aiOnnxOpset11().layernormalization({a, a}), Catch::Contains("opset 17"));
    CHECK_THROWS_AS(b2->aiOnnxOpset(3), popart::error);
    CHECK_THROWS_WITH(DeviceManager::createDeviceManager().createIpuModelDevice({{"tiles", "4"}}),
                      Catch::Contains("unknown option 'tiles'"));
}

TEST_CASE("Training errors: a non-scalar loss, an op without gradient", "[popart][errors]") {
    auto builder = Builder::create();
    auto onnx = builder->aiOnnxOpset11();
    TensorId x = builder->addInputTensor(TensorInfo("FLOAT", Shape{2, 2}), "x");
    std::vector<float> wv(4, 0.5f);
    TensorId w = builder->addInitializedInputTensor(
        ConstVoidData(wv.data(), TensorInfo("FLOAT", Shape{2, 2})), "w");
    TensorId y = onnx.mul({x, w}, "scale");
    TensorId perSample =
        builder->aiGraphcoreOpset1().l1loss({y}, 1.0f, ReductionType::NoReduction, "l1");
    DataFlow flow(1, {{perSample, AnchorReturnType("ALL")}});
    auto session = TrainingSession::createFromOnnxModel(builder->getModelProto(), flow, perSample,
                                                        ConstSGD(0.1f), smallDevice());
    CHECK_THROWS_WITH(session->prepareDevice(), Catch::Contains("must be a scalar"));
    CHECK_THROWS_WITH(session->run(*static_cast<IStepIO*>(nullptr)),
                      Catch::Contains("prepareDevice"));
}

TEST_CASE("VirtualGraphMode::Manual places nodes on the IPUs their virtualGraph names",
          "[popart][session]") {
    auto builder = Builder::create();
    auto onnx = builder->aiOnnxOpset11();
    TensorId x = builder->addInputTensor(TensorInfo("FLOAT", Shape{2, 4}), "x");
    std::vector<float> wv(16, 0.5f);
    TensorId w = builder->addInitializedInputTensor(
        ConstVoidData(wv.data(), TensorInfo("FLOAT", Shape{4, 4})), "w");
    TensorId h = onnx.matmul({x, w}, "ipu0");
    builder->virtualGraph(h, 0);
    TensorId y = onnx.relu({onnx.matmul({h, w}, "ipu1")}, "relu");
    builder->virtualGraph(std::set<TensorId>{y}, 1);
    builder->virtualGraph(builder->getValueTensorIds()[1], 1);
    CHECK(builder->getVirtualGraph(h) == 0);
    SessionOptions opts;
    opts.virtualGraphMode = VirtualGraphMode::Manual;
    auto device = DeviceManager::createDeviceManager().createIpuModelDevice(
        {{"numIPUs", "2"}, {"tilesPerIPU", "4"}});
    DataFlow flow(1, {{y, AnchorReturnType("ALL")}});
    auto session = InferenceSession::createFromOnnxModel(builder->getModelProto(), flow, device,
                                                         InputShapeInfo(), opts);
    session->prepareDevice();
    session->weightsFromHost();
    std::vector<float> xs = {1, 2, 3, 4, -1, -2, -3, -4}, ys(8);
    NDArrayWrapper<float> xa(xs.data(), Shape{2, 4});
    NDArrayWrapper<float> ya(ys.data(), Shape{2, 4});
    StepIO io({{x, &xa}}, {{y, &ya}});
    session->run(io);
    // Row 0: h = 5 per column, y = relu(4 * 5 * 0.5) = 10; row 1 is negative: 0.
    CHECK(ys == std::vector<float>{10, 10, 10, 10, 0, 0, 0, 0});

    builder->virtualGraph(y, 5);
    auto bad = InferenceSession::createFromOnnxModel(builder->getModelProto(), flow, device,
                                                     InputShapeInfo(), opts);
    CHECK_THROWS_WITH(bad->prepareDevice(), Catch::Contains("virtual graph 5 does not exist"));
}
