#pragma once
// PopART's basic names: tensor ids, shapes and the enumerations shared by several headers.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace popart {

/// A tensor's name in the ONNX graph (an input, initializer, node output or anchor).
typedef std::string TensorId;
/// A tensor's dimensions, outermost first, as ONNX stores them.
typedef std::vector<int64_t> Shape;
/// An ONNX op type ("Add", "MatMul", ...).
typedef std::string OpType;
/// A domain ("ai.onnx", "ai.graphcore") and its opset version.
typedef std::map<std::string, int> OpsetVersions;

/// How a loss reduces over its samples: summed, averaged, or kept per sample.
enum class ReductionType { Sum = 0, Mean, NoReduction, N };

/// Whether a tensor is recomputed in the backward pass (recorded on the node as an attribute).
enum class RecomputeType { Undefined = 0, Checkpoint, Recompute, Recomputed };

/// The domains of PopART's op sets.
namespace Domain {
static const char* const ai_onnx = "ai.onnx";
static const char* const ai_graphcore = "ai.graphcore";
} // namespace Domain

} // namespace popart
