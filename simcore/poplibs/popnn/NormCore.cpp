#include "popnn/NormCore.hpp"

#include <poplar/exceptions.hpp>
#include <popops/Cast.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Expr.hpp>
#include <popops/Reduction.hpp>
#include <popops/ScaledAdd.hpp>
#include <poputil/exceptions.hpp>

namespace tilescope::poplibs::norm {

using poplar::Tensor;
namespace pe = popops::expr;

namespace {

std::size_t fieldVolume(const Tensor& acts) {
    std::size_t v = 1;
    for (std::size_t d = 2; d < acts.rank(); ++d)
        v *= acts.dim(d);
    return v;
}

void checkActs(const Tensor& acts, const Layout& layout) {
    if (acts.rank() < 2 || acts.numElements() == 0)
        throw poputil::poplibs_error(layout.api + ": activations '" + acts.getName() +
                                     "' of shape " + acts.shapeToString() +
                                     " are not {N, C, ...} with elements");
    if (acts.elementType() != poplar::FLOAT && acts.elementType() != poplar::HALF)
        throw poputil::poplibs_error(layout.api + ": activations '" + acts.getName() +
                                     "' have type " + acts.elementType().toString() +
                                     " (FLOAT and HALF are supported)");
    if (!layout.batch && (layout.groups == 0 || acts.dim(1) % layout.groups != 0))
        throw poputil::poplibs_error(layout.api + ": " + std::to_string(layout.groups) +
                                     " groups do not divide the " + std::to_string(acts.dim(1)) +
                                     " channels of '" + acts.getName() + "'");
}

/// A per-channel tensor {C} shaped to broadcast against activations of `rank`.
Tensor perChannel(const Tensor& t, std::size_t channels, std::size_t rank, const Layout& layout,
                  const std::string& what) {
    if (t.rank() != 1 || t.dim(0) != channels)
        throw poputil::poplibs_error(layout.api + ": " + what + " '" + t.getName() + "' of shape " +
                                     t.shapeToString() + " is not {" + std::to_string(channels) +
                                     "}");
    std::vector<std::size_t> shape(rank - 1, 1);
    shape[0] = channels;
    return t.reshape(shape);
}

/// A per-row statistic {S} as a column {S, 1}, checked against the rows.
Tensor column(const Tensor& t, const Tensor& rowsView, const Layout& layout,
              const std::string& what) {
    if (t.rank() != 1 || t.dim(0) != rowsView.dim(0))
        throw poputil::poplibs_error(layout.api + ": " + what + " '" + t.getName() + "' of shape " +
                                     t.shapeToString() + " is not {" +
                                     std::to_string(rowsView.dim(0)) + "}");
    return t.expand({1});
}

/// sum over each row of rows, times `scale`, in `type`.
Tensor rowMean(poplar::Graph& graph, const Tensor& r, const poplar::Type& partialsType,
               poplar::program::Sequence& prog, PoplibsOpDebugInfo& di, const std::string& name) {
    Tensor sum =
        popops::reduce(graph, r, partialsType, {1}, popops::Operation::ADD, prog, {di, name});
    return popops::map(graph, pe::_1 * (1.0f / float(r.dim(1))), {sum}, prog, {di, name});
}

Tensor as(poplar::Graph& graph, const Tensor& t, const poplar::Type& type,
          poplar::program::Sequence& prog, PoplibsOpDebugInfo& di) {
    return t.elementType() == type ? t : popops::cast(graph, t, type, prog, {di});
}

} // namespace

void parseGroupOptions(Layout& layout, const poplar::OptionFlags& options) {
    for (const auto& [name, value] : options) {
        if (name != "groupNormStridedChannelGrouping")
            throw poplar::invalid_option(layout.api + ": unknown option '" + name +
                                         "' (known: groupNormStridedChannelGrouping)");
        if (value != "true" && value != "false")
            throw poplar::invalid_option(layout.api +
                                         ": option 'groupNormStridedChannelGrouping'"
                                         " must be 'true' or 'false', got '" +
                                         value + "'");
        layout.strided = value == "true";
    }
}

Tensor rows(const Tensor& acts, const Layout& layout) {
    checkActs(acts, layout);
    const std::size_t N = acts.dim(0), C = acts.dim(1), F = fieldVolume(acts);
    const Tensor a3 = acts.reshape({N, C, F});
    if (layout.batch)
        return a3.dimShuffle({1, 0, 2}).reshape({C, N * F});
    const std::size_t G = layout.groups, Cg = C / G;
    if (layout.strided)
        return a3.reshape({N, Cg, G, F}).dimShuffle({0, 2, 1, 3}).reshape({N * G, Cg * F});
    return a3.reshape({N * G, Cg * F});
}

Tensor fromRows(const Tensor& r, const std::vector<std::size_t>& shape, const Layout& layout) {
    const std::size_t N = shape[0], C = shape[1], F = r.numElements() / (N * C);
    if (layout.batch)
        return r.reshape({C, N, F}).dimShuffle({1, 0, 2}).reshape(shape);
    const std::size_t G = layout.groups, Cg = C / G;
    if (layout.strided)
        return r.reshape({N, G, Cg, F}).dimShuffle({0, 2, 1, 3}).reshape(shape);
    return r.reshape(shape);
}

std::pair<Tensor, Tensor> statistics(poplar::Graph& graph, const Tensor& acts, float eps,
                                     poplar::program::Sequence& prog, bool unbiasedVarEstimate,
                                     bool stableAlgo, const poplar::Type& partialsType,
                                     const Layout& layout, PoplibsOpDebugInfo& di) {
    const Tensor r = rows(acts, layout);
    const float n = float(r.dim(1));
    Tensor mean = rowMean(graph, r, partialsType, prog, di, "mean");
    Tensor var;
    if (stableAlgo) {
        // The mean of squared differences: no cancellation between two large sums.
        Tensor centred = popops::map(graph, pe::Square(pe::_1 - pe::_2),
                                     {as(graph, r, partialsType, prog, di), mean.expand({1})}, prog,
                                     {di, "centred"});
        var = rowMean(graph, centred, partialsType, prog, di, "variance");
    } else {
        Tensor sumSq = popops::reduce(graph, r, partialsType, {1}, popops::Operation::SQUARE_ADD,
                                      prog, {di, "sumSquares"});
        var = popops::map(graph, pe::_1 * (1.0f / n) - pe::Square(pe::_2), {sumSq, mean}, prog,
                          {di, "variance"});
    }
    const float unbias = unbiasedVarEstimate && n > 1 ? n / (n - 1) : 1.0f;
    Tensor invStd =
        popops::map(graph, pe::Rsqrt(pe::_1 * unbias + eps), {var}, prog, {di, "invStdDev"});
    di.addFlops(3 * acts.numElements());
    return {as(graph, mean, acts.elementType(), prog, di),
            as(graph, invStd, acts.elementType(), prog, di)};
}

Tensor whiten(poplar::Graph& graph, const Tensor& acts, const Tensor& mean, const Tensor& invStdDev,
              poplar::program::Sequence& prog, const Layout& layout, PoplibsOpDebugInfo& di) {
    const Tensor r = rows(acts, layout);
    Tensor w =
        popops::map(graph, (pe::_1 - pe::_2) * pe::_3,
                    {r, column(mean, r, layout, "mean"), column(invStdDev, r, layout, "invStdDev")},
                    prog, {di, "whiten"});
    di.addFlops(2 * acts.numElements());
    return fromRows(w, acts.shape(), layout);
}

Tensor affine(poplar::Graph& graph, const Tensor& whitened, const Tensor& gamma, const Tensor& beta,
              poplar::program::Sequence& prog, const Layout& layout, PoplibsOpDebugInfo& di) {
    const std::size_t C = whitened.dim(1), rank = whitened.rank();
    Tensor out = popops::map(graph, pe::_1 * pe::_2 + pe::_3,
                             {whitened, perChannel(gamma, C, rank, layout, "gamma"),
                              perChannel(beta, C, rank, layout, "beta")},
                             prog, {di, "normalise"});
    di.addFlops(2 * whitened.numElements());
    return out;
}

std::pair<Tensor, Tensor> paramGradients(poplar::Graph& graph, const Tensor& whitened,
                                         const Tensor& gradsIn, poplar::program::Sequence& prog,
                                         const poplar::Type& partialsType, const Layout& layout,
                                         PoplibsOpDebugInfo& di) {
    checkActs(whitened, layout);
    if (gradsIn.shape() != whitened.shape() || gradsIn.elementType() != whitened.elementType())
        throw poputil::poplibs_error(
            layout.api + ": gradients '" + gradsIn.getName() + "' " + gradsIn.shapeToString() +
            " must have the shape and type of the activations " + whitened.shapeToString());
    std::vector<std::size_t> dims = {0};
    for (std::size_t d = 2; d < whitened.rank(); ++d)
        dims.push_back(d);
    Tensor product = popops::map(graph, pe::_1 * pe::_2, {gradsIn, whitened}, prog, {di});
    Tensor gammaDelta = popops::reduce(graph, product, partialsType, dims, popops::Operation::ADD,
                                       prog, {di, "gammaDelta"});
    Tensor betaDelta = popops::reduce(graph, gradsIn, partialsType, dims, popops::Operation::ADD,
                                      prog, {di, "betaDelta"});
    di.addFlops(3 * whitened.numElements());
    const poplar::Type type = whitened.elementType();
    return {as(graph, gammaDelta, type, prog, di), as(graph, betaDelta, type, prog, di)};
}

Tensor gradients(poplar::Graph& graph, const Tensor& whitened, const Tensor& gradsIn,
                 const Tensor& invStdDev, const Tensor& gamma, poplar::program::Sequence& prog,
                 const poplar::Type& partialsType, const Layout& layout, PoplibsOpDebugInfo& di) {
    checkActs(whitened, layout);
    if (gradsIn.shape() != whitened.shape() || gradsIn.elementType() != whitened.elementType())
        throw poputil::poplibs_error(
            layout.api + ": gradients '" + gradsIn.getName() + "' " + gradsIn.shapeToString() +
            " must have the shape and type of the activations " + whitened.shapeToString());
    const std::size_t C = whitened.dim(1), rank = whitened.rank();
    // d(loss)/d(whitened), then through the whitening and the statistics of each row:
    // invStdDev * (g - mean(g) - whitened * mean(g * whitened)).
    Tensor g =
        popops::map(graph, pe::_1 * pe::_2, {gradsIn, perChannel(gamma, C, rank, layout, "gamma")},
                    prog, {di, "scaledGradients"});
    const Tensor gRows = rows(g, layout), xRows = rows(whitened, layout);
    Tensor meanG = as(graph, rowMean(graph, gRows, partialsType, prog, di, "meanGradient"),
                      whitened.elementType(), prog, di);
    Tensor gx = popops::map(graph, pe::_1 * pe::_2, {gRows, xRows}, prog, {di});
    Tensor meanGX = as(graph, rowMean(graph, gx, partialsType, prog, di, "meanGradientWhitened"),
                       whitened.elementType(), prog, di);
    Tensor dx = popops::map(graph, pe::_4 * (pe::_1 - pe::_2 - pe::_3 * pe::_5),
                            {gRows, meanG.expand({1}), xRows,
                             column(invStdDev, gRows, layout, "invStdDev"), meanGX.expand({1})},
                            prog, {di, "inputGradients"});
    di.addFlops(8 * whitened.numElements());
    return fromRows(dx, whitened.shape(), layout);
}

template <typename Scale>
void paramUpdate(poplar::Graph& graph, const Tensor& gammaDelta, const Tensor& betaDelta,
                 const Scale& scale, Tensor& gamma, Tensor& beta, poplar::program::Sequence& prog,
                 PoplibsOpDebugInfo& di) {
    popops::scaledSubtractFrom(graph, gamma, gammaDelta, scale, prog, {di, "gamma"});
    popops::scaledSubtractFrom(graph, beta, betaDelta, scale, prog, {di, "beta"});
    di.addFlops(2 * (gamma.numElements() + beta.numElements()));
}

template void paramUpdate<float>(poplar::Graph&, const Tensor&, const Tensor&, const float&,
                                 Tensor&, Tensor&, poplar::program::Sequence&, PoplibsOpDebugInfo&);
template void paramUpdate<Tensor>(poplar::Graph&, const Tensor&, const Tensor&, const Tensor&,
                                  Tensor&, Tensor&, poplar::program::Sequence&,
                                  PoplibsOpDebugInfo&);

} // namespace tilescope::poplibs::norm
