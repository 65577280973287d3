// How PopART plans and lays out a Gather's data (popart/popx/op/sliceplanx.cpp and
// GatherOpx::createInput): popops::embedding::plan minimising cycles, and the weight a Gather
// reads created by popops::createSliceableTensor with that plan.

#include "ops/LoweringState.hpp"
#include "ops/OpHelpers.hpp"
#include "ops/ViewOps.hpp"

#include <popops/DynamicSlice.hpp>

namespace popart {
namespace views {

popops::SlicePlan gatherSlicePlan(poplar::Graph& graph, const poplar::Type& type,
                                  const std::vector<std::size_t>& dataShape, unsigned axis,
                                  std::size_t numLookups, bool forUpdate,
                                  const NodeAttributes& attrs) {
    std::size_t nelms = 1;
    for (auto d : dataShape)
        nelms *= d;
    if (numLookups == 0 || nelms == 0)
        return popops::SlicePlan();
    // createSlicePlanOptions: the cycles objective; a plan for the slice alone (Gather) or for
    // an update with ADD alone (GatherGrad); the node's availableMemoryProportion if it has one.
    poplar::OptionFlags options{{"planMinimisationTarget", "cycles"}};
    options.set("usedForSlice", forUpdate ? "false" : "true");
    options.set("usedForUpdate", forUpdate ? "true" : "false");
    if (forUpdate)
        options.set("operationForUpdate", "add");
    if (attrs.has("__available_memory_proportion"))
        options.set("availableMemoryProportion",
                    std::to_string(attrs.getFloat("__available_memory_proportion", 0.6f)));
    const std::size_t entries = dataShape[axis];
    return popops::embedding::plan(graph, type, entries, nelms / entries, {numLookups}, options);
}

} // namespace views

poplar::Tensor createSliceableWeight(poplar::Graph& graph, const onnx::GraphProto& graphProto,
                                     const ModelAnalysis& analysis, const TensorId& id,
                                     const poplar::DebugContext& debugContext) {
    const TensorInfo& info = analysis.infos.at(id);
    for (const auto& node : graphProto.node()) {
        const bool onnxDomain = node.domain().empty() || node.domain() == "ai.onnx";
        if (!onnxDomain || node.op_type() != "Gather" || node.input_size() < 2 ||
            node.input(0) != id)
            continue;
        const TensorId& indices = node.input(1);
        // Known indices make the Gather a view: nothing is sliced at run time.
        if (analysis.constants.count(indices) && !analysis.weights.count(indices))
            continue;
        const NodeView view(node, nodeOpset(analysis, node.domain()));
        const int64_t rank = static_cast<int64_t>(info.shape().size());
        const auto axis =
            static_cast<unsigned>(normaliseAxis(view, view.attrs().getInt("axis", 0), rank));
        const std::size_t numLookups = static_cast<std::size_t>(analysis.infos.at(indices).nelms());
        const poplar::Type type = deviceTypeOf(info.dataType());
        const auto shape = views::dims(info.shape());
        const auto plan =
            views::gatherSlicePlan(graph, type, shape, axis, numLookups, false, view.attrs());
        if (plan == popops::SlicePlan())
            continue;
        return popops::createSliceableTensor(graph, type, shape, {axis}, {1}, plan, {},
                                             debugContext);
    }
    return poplar::Tensor();
}

} // namespace popart
