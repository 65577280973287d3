#pragma once
// What batch, group and layer normalisation share: the activations {N, C, ...} viewed as rows
// {S, R}, one row per statistic (a channel for batch norm, a batch element's group of channels
// for group norm), and the statistics, whitening and gradients computed over those rows with
// popops reductions and element-wise expressions, as PopLibs composes them.

#include "common/ElementWiseBuilder.hpp"

#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <string>
#include <utility>

namespace tilescope::poplibs::norm {

struct Layout {
    bool batch = true;    ///< batch norm (rows are channels); else group norm
    unsigned groups = 1;  ///< group norm: groups of channels
    bool strided = false; ///< group norm: channels g, g + groups, ... form group g
    std::string api;      ///< the calling API, for errors
};
/// Parses group norm's options into `layout` (groupNormStridedChannelGrouping).
void parseGroupOptions(Layout& layout, const poplar::OptionFlags& options);

/// `acts` viewed as rows {S, R}; throws naming layout.api when acts is not {N, C, ...} or the
/// channels are not divisible by the groups.
poplar::Tensor rows(const poplar::Tensor& acts, const Layout& layout);
/// The inverse view: rows back to `shape`.
poplar::Tensor fromRows(const poplar::Tensor& rows, const std::vector<std::size_t>& shape,
                        const Layout& layout);

std::pair<poplar::Tensor, poplar::Tensor>
statistics(poplar::Graph& graph, const poplar::Tensor& acts, float eps,
           poplar::program::Sequence& prog, bool unbiasedVarEstimate, bool stableAlgo,
           const poplar::Type& partialsType, const Layout& layout, PoplibsOpDebugInfo& di);
poplar::Tensor whiten(poplar::Graph& graph, const poplar::Tensor& acts, const poplar::Tensor& mean,
                      const poplar::Tensor& invStdDev, poplar::program::Sequence& prog,
                      const Layout& layout, PoplibsOpDebugInfo& di);
/// whitened * gamma + beta, gamma and beta per channel.
poplar::Tensor affine(poplar::Graph& graph, const poplar::Tensor& whitened,
                      const poplar::Tensor& gamma, const poplar::Tensor& beta,
                      poplar::program::Sequence& prog, const Layout& layout,
                      PoplibsOpDebugInfo& di);
std::pair<poplar::Tensor, poplar::Tensor>
paramGradients(poplar::Graph& graph, const poplar::Tensor& whitened, const poplar::Tensor& gradsIn,
               poplar::program::Sequence& prog, const poplar::Type& partialsType,
               const Layout& layout, PoplibsOpDebugInfo& di);
poplar::Tensor gradients(poplar::Graph& graph, const poplar::Tensor& whitened,
                         const poplar::Tensor& gradsIn, const poplar::Tensor& invStdDev,
                         const poplar::Tensor& gamma, poplar::program::Sequence& prog,
                         const poplar::Type& partialsType, const Layout& layout,
                         PoplibsOpDebugInfo& di);
/// gamma -= scale * gammaDelta, beta -= scale * betaDelta.
template <typename Scale>
void paramUpdate(poplar::Graph& graph, const poplar::Tensor& gammaDelta,
                 const poplar::Tensor& betaDelta, const Scale& scale, poplar::Tensor& gamma,
                 poplar::Tensor& beta, poplar::program::Sequence& prog, PoplibsOpDebugInfo& di);

} // namespace tilescope::poplibs::norm
