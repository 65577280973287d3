#pragma once
// Runs one ONNX backend node test (model.onnx + test_data_set_*/input_N.pb, output_N.pb from
// Debian's libonnx-testdata) through popart::InferenceSession and compares the outputs the way
// onnx.backend.test does (rtol 1e-3, atol 1e-7; integer and BOOL outputs exactly).

#include <string>

namespace popart_test {

/// The directory of the ONNX node tests.
const char* const kOnnxNodeTestDir = "/usr/share/libonnx-testdata/data/node";

/// Empty on success, else what went wrong (a popart::error's message, or the first mismatch).
std::string runOnnxNodeTest(const std::string& testDir);

} // namespace popart_test
