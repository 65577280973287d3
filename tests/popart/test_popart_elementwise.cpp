// Element-wise ops of a Builder model against host references.
#include "PopartHarness.hpp"

#include <catch2/catch.hpp>
#include <cmath>

using namespace popart;
using popart_test::infer;
using popart_test::values;

TEST_CASE("Add and Relu of a Builder model run on the IPU Model", "[popart][elementwise]") {
    auto builder = Builder::create();
    auto onnx = builder->aiOnnxOpset11();
    TensorId a = builder->addInputTensor(TensorInfo("FLOAT", Shape{2, 3}), "a");
    TensorId b = builder->addInputTensor(TensorInfo("FLOAT", Shape{3}), "b");
    TensorId sum = onnx.add({a, b}, "sum");
    TensorId out = onnx.relu({sum}, "relu");
    builder->addOutputTensor(out);
    CHECK(builder->getTensorShape(sum) == Shape{2, 3});

    const auto va = values(6, -2, 2, 1), vb = values(3, -1, 1, 2);
    auto r = infer(builder->getModelProto(), {{a, va}, {b, vb}}, {out, sum});
    for (std::size_t i = 0; i < 6; ++i) {
        const float s = va[i] + vb[i % 3];
        CHECK(r[sum][i] == Approx(s));
        CHECK(r[out][i] == Approx(std::max(s, 0.0f)));
    }
}
