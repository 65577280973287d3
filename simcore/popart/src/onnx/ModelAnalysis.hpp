#pragma once
// Model analysis before lowering: static shapes for every tensor (ONNX's shape inference with
// data propagation, plus the registry's inferShape hooks for ops ONNX does not know) and
// constant folding (Constant and Shape nodes, and any node whose inputs are all constant and
// whose op has a fold hook), repeated until nothing changes.

#include "ir/HostTensor.hpp"

#include <map>
#include <onnx/onnx_pb.h>
#include <popart/inputshapeinfo.hpp>
#include <set>

namespace popart {

enum class AnalysisMode {
    ShapesOnly, // for Builder queries: no errors for unknown shapes or ops
    Session,    // every tensor must get a static shape
};

struct ModelAnalysis {
    std::map<TensorId, TensorInfo> infos;
    /// Host values of Constant nodes, initializers and folded node outputs.
    std::map<TensorId, HostTensor> constants;
    /// Initializers of a floating-point type: weights (device variables).
    std::set<TensorId> weights;
    /// Outputs of nodes folded on the host (those nodes are not lowered).
    std::set<TensorId> folded;
    int onnxOpset = 0;
    int graphcoreOpset = 0;
};

ModelAnalysis analyseModel(const onnx::ModelProto& model, const InputShapeInfo& inputShapes,
                           AnalysisMode mode);

/// The opset a node of `domain` is at in a model of these opsets.
int nodeOpset(const ModelAnalysis& analysis, const std::string& domain);

} // namespace popart
