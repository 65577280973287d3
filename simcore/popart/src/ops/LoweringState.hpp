#pragma once
// The state the op lowerings of one session share: device tensors by ONNX id, gradients,
// saved forward tensors, and the graph and program the current node adds to.

#include "onnx/ModelAnalysis.hpp"

#include <map>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <set>
#include <string>
#include <vector>

namespace popart {

struct LoweringState {
    poplar::Graph* graph = nullptr;       // the graph the current node is lowered on
    poplar::Graph* mainGraph = nullptr;   // the whole device
    std::vector<poplar::Graph> ipuGraphs; // one virtual graph per IPU (VirtualGraphMode::Manual)
    poplar::program::Sequence* prog = nullptr; // where the current node's programs go
    const ModelAnalysis* analysis = nullptr;
    bool training = false;
    std::map<TensorId, poplar::Tensor> tensors;   // forward values
    std::map<TensorId, poplar::Tensor> constants; // constant inputs made graph constants
    std::map<std::string, poplar::Tensor> saved;  // "<node>/<key>" -> forward tensor
    std::map<TensorId, poplar::Tensor> grads;     // gradient of each tensor
    std::set<TensorId> needsGrad;                 // tensors that depend on a weight
    /// The seed of this batch's random draws (UNSIGNED_INT {2}), made by the first node that
    /// draws: {seedHigh, seedLow}, where seedLow advances once per batch so each batch draws
    /// anew. Session::setRandomSeed writes both halves. Invalid when no node draws.
    poplar::Tensor randomSeed, seedHigh, seedLow;
    /// PopLibs options of every MatMul/Gemm and Conv (SessionOptions' matmulOptions with
    /// partialsTypeMatMuls, convolutionOptions).
    std::map<std::string, std::string> matmulOptions, convolutionOptions;
};

/// The host writes of the seed's halves: the high 32 bits (UNSIGNED_INT {1}) and the low 31
/// bits (INT {1}, the per-batch counter).
extern const char* const kSeedHighHandle;
extern const char* const kSeedLowHandle;

/// The device element type of an ONNX type (INT64 -> INT, UINT64 -> UNSIGNED_INT, FLOAT16 ->
/// HALF); popart::error for DOUBLE, STRING, complex and BFLOAT16.
poplar::Type deviceTypeOf(DataType type);
/// The ONNX type of data as it is on the device (INT64 -> INT32, ...).
DataType deviceDataType(DataType type);
/// Maps `t` over the graph's tiles (new variables and constants).
void mapLinearly(poplar::Graph& graph, const poplar::Tensor& t);

/// The device variable of weight `id` when a Gather of `graphProto` reads it as its data with
/// indices known only at run time: laid out by popops::createSliceableTensor with that Gather's
/// slice plan, as PopART's GatherOpx::createInput does (a Gather's input creator has the highest
/// priority, so it wins over any other consumer of the weight). An invalid tensor otherwise.
poplar::Tensor createSliceableWeight(poplar::Graph& graph, const onnx::GraphProto& graphProto,
                                     const ModelAnalysis& analysis, const TensorId& id,
                                     const poplar::DebugContext& debugContext);

} // namespace popart
