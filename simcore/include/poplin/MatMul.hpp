#pragma once
// poplin matrix multiplication: C = A x B for A of shape {M, K} and B of shape {K, N}.
//
// A planner splits the product over tiles (M rows, K reduction and N columns) by estimated
// cycles under a memory limit; each tile computes one block on its accumulating matrix product
// units. When the reduction dimension is split, each tile writes partial results (not-always-live
// temporaries) that a reduction then sums into the output.
//
// Options: "availableMemoryProportion" (0 < p <= 1, default 0.6): the fraction of a tile's
// memory the blocks and partials of one tile may use; "partialsType" ("float" or "half",
// default "float"): the type of partial sums; "use128BitConvUnitLoad" (true/false, default
// false): the AMP units load weights 128 bits at a time, not 64 (faster weight loads);
// "fullyConnectedPass" (NONE, INFERENCE_FWD, TRAINING_FWD, TRAINING_BWD, TRAINING_WU; checked,
// each product is planned alone); and PopLibs' options "inputRHSIsPreArranged" (B is arranged
// as the product needs whatever its layout), "enableMultiStageReduce", "enableFastReduce",
// "remapOutputTensor", "enableConvDithering" (true/false; accepted without effect). Any other
// option is refused.

#include <map>
#include <memory>
#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <vector>

namespace poplin {

/// Remembers plans between calls with the same shapes, types and options, as PopLibs' planning
/// cache does (planning is cheap here, so it only saves repeated searches).
class PlanningCache {
public:
    PlanningCache();
    ~PlanningCache();
    PlanningCache(const PlanningCache&) = delete;
    PlanningCache& operator=(const PlanningCache&) = delete;

    struct Impl;
    Impl& impl() { return *impl_; }

private:
    std::unique_ptr<Impl> impl_;
};

/// The planning cache's name in earlier SDKs (`poplin::matmul::PlanningCache`), still used by
/// programs written for them.
namespace matmul {
using PlanningCache = ::poplin::PlanningCache;
} // namespace matmul

/// A x B into a new tensor of `outputType`. A and B are rank-2 FLOAT or HALF tensors of one type.
poplar::Tensor matMul(poplar::Graph& graph, const poplar::Tensor& A, const poplar::Tensor& B,
                      poplar::program::Sequence& prog, const poplar::Type& outputType,
                      const poplar::DebugContext& debugContext = {},
                      const poplar::OptionFlags& options = {}, PlanningCache* cache = nullptr);
/// As above with the output type of A.
poplar::Tensor matMul(poplar::Graph& graph, const poplar::Tensor& A, const poplar::Tensor& B,
                      poplar::program::Sequence& prog,
                      const poplar::DebugContext& debugContext = {},
                      const poplar::OptionFlags& options = {}, PlanningCache* cache = nullptr);

/// Independent products of groups: A of shape {G, M, K} and B of shape {G, K, N} give
/// {G, M, N}, group g being A[g] x B[g]. Each group is planned and run as its own matMul (in
/// sequence, each over all tiles), nested in one "matMulGrouped" operation.
poplar::Tensor matMulGrouped(poplar::Graph& graph, const poplar::Tensor& A, const poplar::Tensor& B,
                             poplar::program::Sequence& prog, const poplar::Type& outputType,
                             const poplar::DebugContext& debugContext = {},
                             const poplar::OptionFlags& options = {},
                             PlanningCache* cache = nullptr);

/// C += k * (A x B) for rank-2 A {M, K}, B {K, N} and C {M, N}, the product in C's type; `k` is
/// a number or a single-element FLOAT/HALF tensor (popops::scaledAddTo's scale).
void matMulAcc(poplar::Graph& graph, const poplar::Tensor& C, float k, const poplar::Tensor& A,
               const poplar::Tensor& B, poplar::program::Sequence& prog,
               const poplar::DebugContext& debugContext = {},
               const poplar::OptionFlags& options = {}, PlanningCache* cache = nullptr);
void matMulAcc(poplar::Graph& graph, const poplar::Tensor& C, const poplar::Tensor& k,
               const poplar::Tensor& A, const poplar::Tensor& B, poplar::program::Sequence& prog,
               const poplar::DebugContext& debugContext = {},
               const poplar::OptionFlags& options = {}, PlanningCache* cache = nullptr);
/// As matMulAcc for the groups of matMulGrouped: C {G, M, N} += k * (A {G, M, K} x B {G, K, N}).
void matMulGroupedAcc(poplar::Graph& graph, const poplar::Tensor& C, float k,
                      const poplar::Tensor& A, const poplar::Tensor& B,
                      poplar::program::Sequence& prog,
                      const poplar::DebugContext& debugContext = {},
                      const poplar::OptionFlags& options = {}, PlanningCache* cache = nullptr);
void matMulGroupedAcc(poplar::Graph& graph, const poplar::Tensor& C, const poplar::Tensor& k,
                      const poplar::Tensor& A, const poplar::Tensor& B,
                      poplar::program::Sequence& prog,
                      const poplar::DebugContext& debugContext = {},
                      const poplar::OptionFlags& options = {}, PlanningCache* cache = nullptr);

/// A variable for the left operand of a matMul of these shapes, mapped the way the plan reads
/// it (so the product needs little exchange).
poplar::Tensor createMatMulInputLHS(poplar::Graph& graph, const poplar::Type& inputType,
                                    const poplar::Type& outputType,
                                    const std::vector<std::size_t>& aShape,
                                    const std::vector<std::size_t>& bShape,
                                    const poplar::DebugContext& debugContext = {},
                                    const poplar::OptionFlags& options = {},
                                    PlanningCache* cache = nullptr);
poplar::Tensor createMatMulInputLHS(poplar::Graph& graph, const poplar::Type& dataType,
                                    const std::vector<std::size_t>& aShape,
                                    const std::vector<std::size_t>& bShape,
                                    const poplar::DebugContext& debugContext = {},
                                    const poplar::OptionFlags& options = {},
                                    PlanningCache* cache = nullptr);
/// A variable for the right operand, mapped the way the plan reads it.
poplar::Tensor createMatMulInputRHS(poplar::Graph& graph, const poplar::Type& inputType,
                                    const poplar::Type& outputType,
                                    const std::vector<std::size_t>& aShape,
                                    const std::vector<std::size_t>& bShape,
                                    const poplar::DebugContext& debugContext = {},
                                    const poplar::OptionFlags& options = {},
                                    PlanningCache* cache = nullptr);
poplar::Tensor createMatMulInputRHS(poplar::Graph& graph, const poplar::Type& dataType,
                                    const std::vector<std::size_t>& aShape,
                                    const std::vector<std::size_t>& bShape,
                                    const poplar::DebugContext& debugContext = {},
                                    const poplar::OptionFlags& options = {},
                                    PlanningCache* cache = nullptr);

} // namespace poplin
