#pragma once
// Shared by the PopLibs libraries: adding one compute set's worth of element-wise vertices over
// the tile mapping of an output tensor, and the operation record every PopLibs call makes.

#include <cstdint>
#include <functional>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poputil/DebugInfo.hpp>
#include <string>
#include <utility>
#include <vector>

namespace tilescope::poplibs {

/// A vertex field and the tensor it covers. The tensor has k * n elements, where n is the mapped
/// output's element count and k >= 1: element i of the output owns elements [i*k, (i+1)*k) of
/// the flattened tensor (k = 1 for element-wise operations, the reduction size for reductions).
using FieldTensor = std::pair<std::string, poplar::Tensor>;
/// A list field (Vector<Input<Vector<T>>>) whose items cover one tensor each, as FieldTensor.
using ListFieldTensors = std::pair<std::string, std::vector<poplar::Tensor>>;

/// Adds vertices of `vertexType` to `cs` covering every element of `mapped` where it lives: on
/// each tile the elements there are split into up to one chunk per worker (in grains of the
/// vector width of `mapped`'s type), and each chunk gets one vertex whose fields connect the
/// same elements (groups of k elements) of each tensor of `fields`. `cycles(elements)` gives each
/// vertex's estimate; `configure` (optional) sets its state fields; `listFields` connect one list
/// item per tensor. Throws if `mapped` has unmapped
/// elements.
void addElementWiseVertices(poplar::Graph& graph, poplar::ComputeSet cs,
                            const std::string& vertexType, const poplar::Tensor& mapped,
                            const std::vector<FieldTensor>& fields,
                            const std::function<std::uint64_t(std::size_t elements)>& cycles,
                            const std::function<void(poplar::VertexRef)>& configure = {},
                            const std::vector<ListFieldTensors>& listFields = {});

/// One tile's elements of `flat` (its flat `intervals`) grouped into regions contiguous in
/// memory, in memory order, as poputil's getSortedContiguousRegions gives them: each region is
/// the flat intervals whose elements follow one another in one variable.
std::vector<std::vector<poplar::Interval>>
contiguousRegions(const poplar::Tensor& flat, const std::vector<poplar::Interval>& intervals);

/// The DebugInfo of one PopLibs call: layer "PopLibs", named after the API function under the
/// caller's debug context, with its arguments (DI_ARGS), outputs (addOutput/addOutputs) and an
/// estimated FLOP count attached by `addFlops`.
class PoplibsOpDebugInfo : public poputil::PoplibsOpDebugInfo {
public:
    PoplibsOpDebugInfo(const poplar::DebugContext& debugContext, const std::string& api)
        : poputil::PoplibsOpDebugInfo(debugContext, {}, api) {}
    PoplibsOpDebugInfo(const poplar::DebugContext& debugContext,
                       const std::vector<poputil::ArgType>& args, const std::string& api)
        : poputil::PoplibsOpDebugInfo(debugContext, args, api) {}
    /// Adds to the estimated floating-point operations of this call.
    void addFlops(std::uint64_t flops);
};

/// The shape both operands broadcast to (numpy rules: trailing dimensions match or are 1).
/// Throws poputil::poplibs_error naming `api` and both tensors when they do not broadcast.
std::vector<std::size_t> broadcastShape(const std::string& api, const poplar::Tensor& a,
                                        const poplar::Tensor& b);
/// The shape all of `ts` broadcast to; throws as broadcastShape, naming every tensor.
std::vector<std::size_t> broadcastShapes(const std::string& api,
                                         const std::vector<poplar::Tensor>& ts);
/// A view of `t` broadcast to `shape` (which broadcastShape accepted).
poplar::Tensor broadcastTo(const poplar::Tensor& t, const std::vector<std::size_t>& shape);

/// A new variable of `shape` for a result: mapped like `like` when that has the same shape and
/// no aliases (so the operation needs no exchange), otherwise mapped linearly.
poplar::Tensor createOutput(poplar::Graph& graph, const poplar::Type& type,
                            const std::vector<std::size_t>& shape, const poplar::Tensor& like,
                            const poplar::DebugContext& debugContext);

std::string shapeString(const std::vector<std::size_t>& shape);

} // namespace tilescope::poplibs
