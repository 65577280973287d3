#pragma once
// The convolution planner: how to split a convolution (or its weight-delta pass) over the tiles
// of a target, and which convolution-partial vertex each tile runs.

#include <cstddef>
#include <cstdint>
#include <poplar/Target.hpp>
#include <poplar/Type.hpp>
#include <poplin/ConvParams.hpp>
#include <string>

namespace tilescope::poplibs {

/// The PopLibs vertex a plan's tiles run: ConvPartial1x1Out or ConvPartialnx1 on the AMP units,
/// ConvPartialHorizontalMac on the workers' multiply-accumulate instructions, or
/// ConvPartial1x4SLIC (ipu2, HALF inputs, FLOAT partials: the AMP units fed 1x4 kernel windows of
/// up to 4 conv groups' few channels). Each tile runs one vertex for all the conv groups it holds.
enum class ConvMethod { Amp1x1, AmpNx1, HorizontalMac, Slic };
const char* convMethodName(ConvMethod m);

/// A split of a convolution into blocks, one per tile: batch x conv groups x output channels x
/// output rows (the outermost field dimension) x input channels. With input channels split,
/// tiles write partial sums that a reduction adds. For the weight-delta pass the output is the
/// weights: batch and rows are the reduction (splitB x splitF partials) and output/input channels
/// and groups split the weights. Tiles are numbered as PopLibs' linearizeConvIndices numbers
/// them (tileOf): output-channel blocks innermost, so that the two tiles of a super tile read
/// the same input block when that split is even.
struct ConvPlan {
    std::size_t splitB = 1, splitG = 1, splitO = 1, splitF = 1, splitI = 1;
    std::size_t blockB = 0, blockG = 0, blockO = 0, blockF = 0, blockI = 0;
    ConvMethod method = ConvMethod::HorizontalMac;
    /// Conv groups the vertex takes together (SLIC: 4, 2 or 1 with 1, 2 or 4 channels; else 1).
    unsigned convGroupsPerGroup = 1;
    bool weightUpdate = false;
    /// PopLibs' option use128BitConvUnitLoad: the AMP vertices load weights 128 bits at a time.
    bool use128BitConvUnitLoad = false;
    std::uint64_t estimatedCycles = 0; ///< tile cycles: exchange + vertices + reduction
    std::uint64_t exchangeCycles = 0;  ///< of which operands' and partial sums' exchange
    std::uint64_t vertexCycles = 0;    ///< of which the busiest tile's vertex
    std::uint64_t reductionCycles = 0; ///< of which the partial sums' reduction
    std::uint64_t bytesPerTile = 0;
    unsigned numTiles = 1;

    /// The tile of block (b, g, o, f, i): groups outermost, then input channels, batch, rows
    /// and output channels innermost (PopLibs' linearizeConvIndices, lib/poplin/Convolution.cpp,
    /// which has no kernel split here). Blocks differing only in `o` are on adjacent tiles and
    /// read the same input; the partials of one output (all `i`) are splitB x splitF x splitO
    /// tiles apart.
    unsigned tileOf(std::size_t b, std::size_t g, std::size_t o, std::size_t f,
                    std::size_t i) const {
        return static_cast<unsigned>(((((g * splitI + i) * splitB + b) * splitF + f) * splitO + o) %
                                     numTiles);
    }
    std::size_t partials() const { return weightUpdate ? splitB * splitF : splitI; }
    std::string describe() const;
};

/// `params` with three field dimensions, adding dimensions of size 1 (identity transforms) so
/// that the innermost dimension stays innermost (the rows of the vertices' work) and the
/// outermost real one comes first (the dimension the planner splits): {H, W} becomes
/// {H, 1, W}, {W} becomes {1, 1, W}.
poplin::ConvParams canonicalParams(const poplin::ConvParams& params);
/// Where those dimensions go among the field dimensions of a `fieldDims`-dimensional field.
std::size_t canonicalInsertAt(std::size_t fieldDims);

/// Tile cycles of the one vertex of `method` a tile runs over `convGroups` conv groups, each a
/// block of `batch` x `outChans` x `inChans` and output field out0 x out1 x out2 with the kernel
/// k0 x k1 x k2 (PopLibs' estimators, the conv groups a loop count of the supervisor). SLIC
/// takes the cheapest of its conv-group groupings (at most `slicMaxGrouping` groups a group)
/// that hold the block's channels (written to `slicGrouping` if given; innermost output stride
/// `innerStride`, 1 or 2) and is never cheaper than any other method when no grouping holds
/// them (the maximum value).
std::uint64_t convVertexCycles(const poplar::Target& target, const poplar::Type& inputType,
                               ConvMethod method, std::size_t convGroups, std::size_t batch,
                               std::size_t outChans, std::size_t inChans, const std::size_t out[3],
                               const std::size_t kernel[3], unsigned innerStride = 1,
                               unsigned slicMaxGrouping = 4, unsigned* slicGrouping = nullptr,
                               bool use128BitConvUnitLoad = false);
/// Tile cycles of the one weight-delta vertex a tile runs over `convGroups` conv groups: the pass
/// PopLibs runs as a convolution whose input channels are the batch and output field and whose
/// field is the kernel and input channels, on the AMP units (ConvPartial1x1Out).
std::uint64_t convWeightDeltaCycles(const poplar::Target& target, const poplar::Type& inputType,
                                    std::size_t convGroups, std::size_t batch, std::size_t outChans,
                                    std::size_t inChans, const std::size_t out[3],
                                    const std::size_t kernel[3],
                                    bool use128BitConvUnitLoad = false);
/// Bytes of the buffer a ConvPartial1x4SLIC vertex alternates its partials with: one conv group
/// group's share of the tile's `partialBytes` plus 200 (PopLibs' addConvTempMemoryEstimate and
/// the vertex's `outFieldBuffer`, offset 200 bytes).
std::uint64_t slicBufferBytes(std::uint64_t partialBytes, std::uint64_t convGroupGroups);
/// Whether PopLibs offers ConvPartial1x4SLIC for canonical `params` with `partialsType`
/// partials: an ipu2 target (the SLIC instruction), HALF inputs and FLOAT partials (the only
/// instantiation of the vertex), no input or kernel dilation, flips or kernel transforms, and
/// output strides of 1 but for the innermost dimension's 1 or 2.
bool slicApplies(const poplar::Target& target, const poplin::ConvParams& params,
                 const poplar::Type& partialsType);

/// The plan with the fewest estimated cycles whose per-tile bytes stay within
/// `availableMemoryProportion` of a tile's memory, else the one using least memory. `params`
/// must be canonical (three field dimensions).
ConvPlan planConvolution(const poplar::Target& target, const poplin::ConvParams& params,
                         const poplar::Type& partialsType, double availableMemoryProportion,
                         bool weightUpdate, bool use128BitConvUnitLoad = false);

} // namespace tilescope::poplibs
