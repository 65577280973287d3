// ONNX backend node tests of the ops this library lowers (Debian's libonnx-testdata), run
// through InferenceSession. The full survey ([.survey]) prints pass/fail of every node test.
#include "OnnxNodeTest.hpp"

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <iostream>

using popart_test::kOnnxNodeTestDir;
using popart_test::runOnnxNodeTest;

namespace {

void runAll(const std::vector<std::string>& names) {
    for (const auto& name : names) {
        INFO(name);
        CHECK(runOnnxNodeTest(std::string(kOnnxNodeTestDir) + "/" + name) == "");
    }
}

} // namespace

TEST_CASE("ONNX node tests: element-wise and arithmetic", "[popart][onnx]") {
    runAll({"test_add",         "test_add_bcast",
            "test_sub",         "test_mul_bcast",
            "test_div",         "test_neg",
            "test_abs",         "test_exp",
            "test_log",         "test_sqrt",
            "test_reciprocal",  "test_sin",
            "test_cos",         "test_tanh",
            "test_sigmoid",     "test_relu",
            "test_leakyrelu",   "test_elu",
            "test_selu",        "test_erf",
            "test_hardsigmoid", "test_softplus",
            "test_floor",       "test_ceil",
            "test_round",       "test_sign",
            "test_clip",        "test_clip_default_min",
            "test_min_example", "test_max_example",
            "test_sum_example", "test_mean_example",
            "test_pow",         "test_pow_bcast_array"});
}

TEST_CASE("ONNX node tests: comparisons and logic", "[popart][onnx]") {
    runAll({"test_equal", "test_less", "test_greater", "test_less_equal", "test_greater_equal",
            "test_not_2d", "test_and2d", "test_or_bcast3v1d", "test_xor4d"});
}

TEST_CASE("ONNX node tests: matmul, gemm, reductions, softmax", "[popart][onnx]") {
    runAll({"test_matmul_2d", "test_matmul_3d", "test_matmul_4d", "test_gemm_default_no_bias",
            "test_gemm_all_attributes", "test_gemm_transposeA",
            "test_reduce_mean_default_axes_keepdims_example",
            "test_reduce_max_do_not_keepdims_example", "test_reduce_min_keepdims_random",
            "test_reduce_prod_default_axes_keepdims_random", "test_reduce_l1_keep_dims_example",
            "test_reduce_l2_do_not_keepdims_example",
            "test_reduce_sum_square_default_axes_keepdims_random", "test_argmax_keepdims_example",
            "test_argmin_no_keepdims_example", "test_softmax_axis_0", "test_softmax_example",
            "test_logsoftmax_axis_1", "test_softmax_axis_2"});
}

TEST_CASE("ONNX node tests: norms and losses", "[popart][onnx]") {
    runAll({"test_layer_normalization_2d_axis0", "test_layer_normalization_4d_axis_negative_1",
            "test_batchnorm_example", "test_batchnorm_epsilon", "test_dropout_default",
            "test_sce_mean", "test_sce_sum", "test_sce_none_weights", "test_sce_mean_weight_ii",
            "test_nllloss_NC", "test_nllloss_NCd1_weight_ii"});
}

TEST_CASE("ONNX node tests: every test of the listed ops (survey)", "[.survey]") {
    std::vector<std::string> names;
    // POPART_NODE_TEST_FILTER limits the survey to tests whose name contains it.
    const char* filter = std::getenv("POPART_NODE_TEST_FILTER");
    for (const auto& e : std::filesystem::directory_iterator(kOnnxNodeTestDir))
        if (!filter || e.path().filename().string().find(filter) != std::string::npos)
            names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    int passed = 0, failed = 0;
    for (const auto& name : names) {
        const std::string why = runOnnxNodeTest(std::string(kOnnxNodeTestDir) + "/" + name);
        (why.empty() ? passed : failed)++;
        std::cout << (why.empty() ? "PASS " : "FAIL ") << name
                  << (why.empty() ? "" : ": " + why.substr(0, 200)) << "\n";
    }
    std::cout << "{\"passed\": " << passed << ", \"failed\": " << failed << "}\n";
}

TEST_CASE("ONNX node tests: convolution and pooling", "[popart][onnx]") {
    runAll({"test_basic_conv_with_padding", "test_conv_with_strides_padding",
            "test_conv_with_autopad_same", "test_maxpool_2d_pads", "test_maxpool_2d_same_upper",
            "test_averagepool_2d_strides", "test_averagepool_2d_pads", "test_globalaveragepool",
            "test_globalmaxpool_precomputed"});
}
