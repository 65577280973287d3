#pragma once
// What poplin's convolution passes share: options, plans, blocks of a plan, canonical
// (three-field-dimension) views of their tensors and the vertices' index tables.

#include "common/ElementWiseBuilder.hpp"
#include "poplin/ConvPlanner.hpp"

#include <cstddef>
#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplin/Convolution.hpp>
#include <string>
#include <vector>

namespace tilescope::poplibs::conv {

struct Options {
    double availableMemoryProportion = 0.6;
    poplar::Type partialsType = poplar::FLOAT;
    std::string pass = "NONE";
    /// AMP vertices load weights 128 bits at a time (PopLibs' default: 64).
    bool use128BitConvUnitLoad = false;
};
/// `value` of the true/false option `name`; throws poplar::invalid_option naming `api` otherwise.
bool parseBoolOption(const std::string& name, const std::string& value, const std::string& api);
/// Parses PopLibs' convolution options; throws poplar::invalid_option naming `api` and the option.
Options parseOptions(const poplar::OptionFlags& options, const std::string& api);

/// The plan for canonical params `p3` (from the cache when it has one).
ConvPlan getPlan(const poplar::Graph& graph, const poplin::ConvParams& p3, const Options& o,
                 bool weightUpdate, poplin::PlanningCache* cache);

struct Range {
    std::size_t index, begin, end;
};
/// [0, size) cut into blocks of `block` (the last may be shorter).
std::vector<Range> ranges(std::size_t size, std::size_t block);

/// `t` {B, C, F...} (or {G, Co, Ci, K...} with `weights`) viewed with three field dimensions,
/// as canonicalParams adds them.
poplar::Tensor canonical(const poplar::Tensor& t, bool weights);
/// Checks `t` has `shape`; throws poputil::poplibs_error naming `api`, `what` and both shapes.
void checkShape(const std::string& api, const std::string& what, const poplar::Tensor& t,
                const std::vector<std::size_t>& shape);

/// The input rows [lo, hi) of dimension 0 that output rows [r0, r1) read (at least one row).
std::pair<std::size_t, std::size_t> inputRows(const poplin::ConvParams& p3, std::size_t r0,
                                              std::size_t r1);
/// A vertex's tables (ConvVertices.hpp) for output rows [r0, r1) of dimension 0 with its input
/// slice starting at row `lo`; the other dimensions whole.
std::vector<int> tables(const poplin::ConvParams& p3, std::size_t r0, std::size_t r1,
                        std::size_t lo);
/// The tables as a constant on `tile`.
poplar::Tensor tableConstant(poplar::Graph& graph, const std::vector<int>& table, unsigned tile,
                             const poplar::DebugContext& debugContext);
/// Sets the state fields every convolution vertex has.
void setVertexState(poplar::Graph& graph, poplar::VertexRef v, const poplar::Tensor& table,
                    std::size_t batch, std::size_t inChans, std::size_t outChans,
                    const std::size_t in[3], const std::size_t out[3], const std::size_t kernel[3]);

/// Spreads `t`'s elements over `tiles` in equal contiguous shares.
void spread(poplar::Graph& graph, const poplar::Tensor& t, const std::vector<unsigned>& tiles);

/// The forward convolution of canonical `in5` {B, G*Ci, F0, F1, F2} with canonical `w6` {G, Co,
/// Ci, K0, K1, K2} into a new {B, G*Co, O0, O1, O2} tensor of p3.outputType, recorded under `di`.
poplar::Tensor forward(poplar::Graph& graph, const poplar::Tensor& in5, const poplar::Tensor& w6,
                       const poplin::ConvParams& p3, const ConvPlan& plan, const Options& o,
                       poplar::program::Sequence& prog, PoplibsOpDebugInfo& di);

} // namespace tilescope::poplibs::conv
