#include "poplin/ConvPlanner.hpp"

#include "common/ConvCycleEstimates.hpp"
#include "common/CycleEstimates.hpp"
#include "poplin/ConvReduce.hpp"

#include <algorithm>
#include <vector>

namespace tilescope::poplibs {

namespace {

std::size_t ceilDiv(std::size_t a, std::size_t b) {
    return (a + b - 1) / b;
}

/// Splits of a dimension of `n` worth trying: powers of two and n itself, each giving a
/// different block size.
std::vector<std::size_t> splitCandidates(std::size_t n, std::size_t limit) {
    std::vector<std::size_t> out;
    std::size_t lastBlock = 0;
    const auto add = [&](std::size_t s) {
        if (s == 0 || s > n || s > limit)
            return;
        const std::size_t block = ceilDiv(n, s);
        if (block != lastBlock) {
            out.push_back(s);
            lastBlock = block;
        }
    };
    for (std::size_t s = 1; s <= n && s <= limit; s *= 2)
        add(s);
    add(n);
    return out;
}

/// Input elements of the split dimension a block of `rows` output rows reads: rows at the
/// stride plus the transformed kernel, at most the input.
std::size_t inputRowsFor(const poplin::ConvParams& p, std::size_t rows) {
    const std::size_t stride = p.outputTransform.stride[0];
    const std::size_t need = (rows - 1) * stride + p.getTransformedKernelSize(0);
    return std::min<std::size_t>(need, p.inputFieldShape[0]);
}

} // namespace

const char* convMethodName(ConvMethod m) {
    switch (m) {
    case ConvMethod::Amp1x1:
        return "ConvPartial1x1Out";
    case ConvMethod::AmpNx1:
        return "ConvPartialnx1";
    case ConvMethod::HorizontalMac:
        return "ConvPartialHorizontalMac";
    case ConvMethod::Slic:
        return "ConvPartial1x4SLIC";
    }
    return "?";
}

std::string ConvPlan::describe() const {
    return std::string(weightUpdate ? "weight deltas, " : "") + "split B/G/Co/F/Ci " +
           std::to_string(splitB) + "/" + std::to_string(splitG) + "/" + std::to_string(splitO) +
           "/" + std::to_string(splitF) + "/" + std::to_string(splitI) + ", block " +
           std::to_string(blockB) + "x" + std::to_string(blockG) + "x" + std::to_string(blockO) +
           "x" + std::to_string(blockF) + "x" + std::to_string(blockI) + ", " +
           (weightUpdate ? "ConvPartial1x1Out" : convMethodName(method)) +
           (!weightUpdate && method == ConvMethod::Slic
                ? " (" + std::to_string(convGroupsPerGroup) + " conv groups x " +
                      std::to_string(4 / convGroupsPerGroup) + " channels)"
                : "");
}

std::size_t canonicalInsertAt(std::size_t fieldDims) {
    return fieldDims == 2 ? 1 : 0;
}

poplin::ConvParams canonicalParams(const poplin::ConvParams& p) {
    poplin::ConvParams c = p;
    const std::size_t pad = 3 - p.getNumFieldDims();
    const std::size_t at = canonicalInsertAt(p.getNumFieldDims());
    const auto front = [&](auto& v, auto value) { v.insert(v.begin() + long(at), pad, value); };
    front(c.inputFieldShape, std::size_t(1));
    front(c.kernelShape, std::size_t(1));
    for (auto* t : {&c.inputTransform, &c.kernelTransform}) {
        front(t->truncationLower, 0u);
        front(t->truncationUpper, 0u);
        front(t->dilation, 1u);
        front(t->paddingLower, 0u);
        front(t->paddingUpper, 0u);
        front(t->flip, false);
    }
    front(c.outputTransform.truncationLower, 0u);
    front(c.outputTransform.truncationUpper, 0u);
    front(c.outputTransform.stride, 1u);
    front(c.outputTransform.paddingLower, 0u);
    front(c.outputTransform.paddingUpper, 0u);
    return c;
}

std::uint64_t slicBufferBytes(std::uint64_t partialBytes, std::uint64_t convGroupGroups) {
    constexpr std::uint64_t kBufferOffsetBytes = 200; // the vertex's outFieldBufferOffset
    return ceilDiv(partialBytes, convGroupGroups) + kBufferOffsetBytes;
}

bool slicApplies(const poplar::Target& target, const poplin::ConvParams& p,
                 const poplar::Type& partialsType) {
    if (target.getTargetArchString() != "ipu2" || p.inputType != poplar::HALF ||
        partialsType != poplar::FLOAT)
        return false;
    const auto all = [](const auto& v, auto value) {
        return std::all_of(v.begin(), v.end(), [&](auto x) { return x == value; });
    };
    const auto& in = p.inputTransform;
    const auto& k = p.kernelTransform;
    const std::size_t inner = p.getNumFieldDims() - 1;
    for (std::size_t d = 0; d < p.getNumFieldDims(); ++d)
        if (p.outputTransform.stride[d] != 1 && (d != inner || p.outputTransform.stride[d] != 2))
            return false;
    return all(in.dilation, 1u) && all(in.flip, false) && all(k.dilation, 1u) &&
           all(k.flip, false) && all(k.paddingLower, 0u) && all(k.paddingUpper, 0u) &&
           all(k.truncationLower, 0u) && all(k.truncationUpper, 0u);
}

std::uint64_t convVertexCycles(const poplar::Target& target, const poplar::Type& inputType,
                               ConvMethod method, std::size_t convGroups, std::size_t batch,
                               std::size_t outChans, std::size_t inChans, const std::size_t out[3],
                               const std::size_t kernel[3], unsigned innerStride,
                               unsigned slicMaxGrouping, unsigned* slicGrouping,
                               bool use128BitConvUnitLoad) {
    const unsigned workers = target.getNumWorkerContexts();
    const std::uint64_t rows = std::uint64_t(batch) * out[0] * out[1];
    const unsigned rowLength = static_cast<unsigned>(out[2]);
    const std::uint64_t kernelPositions = std::uint64_t(kernel[0]) * kernel[1] * kernel[2];
    const auto groups = static_cast<unsigned>(convGroups);
    switch (method) {
    case ConvMethod::Amp1x1:
        return cycles::convPartial1x1(target, inputType, poplar::FLOAT, rows * rowLength, inChans,
                                      outChans, groups, use128BitConvUnitLoad);
    case ConvMethod::AmpNx1: {
        const auto parts = cycles::convWorkerPartitions(workers, rows, rowLength, kernelPositions);
        const unsigned outGroups =
            static_cast<unsigned>(ceilDiv(outChans, cycles::numConvUnits(target, inputType)));
        const unsigned inGroups =
            static_cast<unsigned>(ceilDiv(inChans, cycles::weightsPerConvUnit(target, inputType)));
        return cycles::convPartialnx1(target, inputType, parts, static_cast<unsigned>(kernel[2]),
                                      static_cast<unsigned>(kernel[0] * kernel[1]), groups,
                                      outGroups, inGroups, use128BitConvUnitLoad);
    }
    case ConvMethod::HorizontalMac: {
        const auto parts = cycles::convWorkerPartitions(workers, rows, rowLength, kernelPositions);
        return cycles::convPartialHorizontalMac(target, inputType, parts, groups, 1, 1,
                                                static_cast<unsigned>(inChans),
                                                static_cast<unsigned>(outChans));
    }
    case ConvMethod::Slic: {
        // PopLibs' SLIC candidates (ConvVertexType.cpp): 4 conv groups of 1 channel, 2 of 2 or
        // 1 of 4; its planner takes a grouping only when a tile's input and output channels are
        // one channel group each (ConvPlan.cpp, addPartialCalcCycleEstimate). The kernel's width
        // is covered by 1x4 windows, one sub-kernel for each and every other kernel position.
        const auto parts = cycles::convWorkerPartitions(workers, rows, rowLength, 1);
        std::vector<std::vector<unsigned>> rowsOf(parts.size());
        for (std::size_t w = 0; w < parts.size(); ++w)
            rowsOf[w] = parts[w][0];
        const unsigned units = cycles::numConvUnits(target, inputType);
        constexpr unsigned kWindowWidth = 4; // the 1x4 vertex
        const std::uint64_t subKernels =
            ceilDiv(kernel[2], kWindowWidth) * std::uint64_t(kernel[0]) * kernel[1];
        const std::uint64_t zeroing =
            cycles::convSlicInner(rowsOf, workers, units, true, innerStride, true);
        const std::uint64_t inner =
            cycles::convSlicInner(rowsOf, workers, units, true, innerStride, false);
        std::uint64_t best = ~std::uint64_t(0);
        for (unsigned perGroup : {4u, 2u, 1u}) {
            const std::size_t chans = 4 / perGroup;
            if (inChans > chans || outChans > chans || perGroup > slicMaxGrouping)
                continue;
            const std::uint64_t c = cycles::convPartialSlic(
                zeroing, inner, cycles::convSlicWeightLoad(workers, perGroup),
                ceilDiv(convGroups, perGroup), subKernels, units, true);
            if (c < best) {
                best = c;
                if (slicGrouping)
                    *slicGrouping = perGroup;
            }
        }
        return best;
    }
    }
    return 0;
}

std::uint64_t convWeightDeltaCycles(const poplar::Target& target, const poplar::Type& inputType,
                                    std::size_t convGroups, std::size_t batch, std::size_t outChans,
                                    std::size_t inChans, const std::size_t out[3],
                                    const std::size_t kernel[3], bool use128BitConvUnitLoad) {
    const std::uint64_t field = std::uint64_t(batch) * out[0] * out[1] * out[2];
    const std::uint64_t kernelPositions = std::uint64_t(kernel[0]) * kernel[1] * kernel[2];
    // FLOAT partials, as PopLibs' convolutions accumulate by default.
    return cycles::convPartial1x1(target, inputType, poplar::FLOAT, kernelPositions * inChans,
                                  field, outChans, convGroups, use128BitConvUnitLoad);
}

ConvPlan planConvolution(const poplar::Target& target, const poplin::ConvParams& p,
                         const poplar::Type& partialsType, double availableMemoryProportion,
                         bool weightUpdate, bool use128BitConvUnitLoad) {
    const std::size_t tiles = target.getNumTiles();
    const std::uint64_t inBytes = target.getTypeSize(p.inputType);
    const std::uint64_t partialBytes = target.getTypeSize(partialsType);
    const std::uint64_t exchangeRate = target.spec().exchangeBytesPerCycle;
    const auto limit =
        static_cast<std::uint64_t>(availableMemoryProportion * double(target.getBytesPerTile()));
    const std::size_t B = p.batchSize, G = p.numConvGroups, Co = p.outputChannels,
                      Ci = p.inputChannels;
    const std::size_t out[3] = {p.getOutputSize(0), p.getOutputSize(1), p.getOutputSize(2)};
    const std::size_t kernel[3] = {p.kernelShape[0], p.kernelShape[1], p.kernelShape[2]};
    const std::size_t inPlane = p.inputFieldShape[1] * p.inputFieldShape[2];
    const std::size_t kernelElems = kernel[0] * kernel[1] * kernel[2];
    const bool oneByOne = kernelElems == 1;
    std::vector<ConvMethod> methods = {oneByOne ? ConvMethod::Amp1x1 : ConvMethod::AmpNx1,
                                       ConvMethod::HorizontalMac};
    if (!weightUpdate && slicApplies(target, p, partialsType))
        methods.push_back(ConvMethod::Slic);
    const auto innerStride = static_cast<unsigned>(p.outputTransform.stride[2]);
    // How many tiles take one input block in the same cycles for an output-channel split.
    const auto busShare = [&](std::size_t outChanSplit) -> std::uint64_t {
        const unsigned pair = target.getTilesPerSharedExchangeBus();
        return target.supportsExchangeBusSharing() && outChanSplit % pair == 0 ? pair : 1;
    };

    ConvPlan best, smallest;
    bool haveBest = false, haveSmallest = false;
    for (std::size_t sb : splitCandidates(B, tiles))
        for (std::size_t sg : splitCandidates(G, tiles / sb))
            for (std::size_t so : splitCandidates(Co, tiles / (sb * sg)))
                for (std::size_t sf : splitCandidates(out[0], tiles / (sb * sg * so)))
                    for (std::size_t sI : splitCandidates(Ci, tiles / (sb * sg * so * sf))) {
                        ConvPlan c;
                        c.weightUpdate = weightUpdate;
                        c.use128BitConvUnitLoad = use128BitConvUnitLoad;
                        c.numTiles = static_cast<unsigned>(tiles);
                        c.splitB = sb, c.splitG = sg, c.splitO = so, c.splitF = sf, c.splitI = sI;
                        c.blockB = ceilDiv(B, sb), c.blockG = ceilDiv(G, sg);
                        c.blockO = ceilDiv(Co, so), c.blockF = ceilDiv(out[0], sf);
                        c.blockI = ceilDiv(Ci, sI);
                        const std::size_t blockOut[3] = {c.blockF, out[1], out[2]};
                        const std::uint64_t inElems =
                            c.blockB * c.blockI * inputRowsFor(p, c.blockF) * inPlane;
                        const std::uint64_t wElems = c.blockO * c.blockI * kernelElems;
                        const std::uint64_t outElems =
                            c.blockB * c.blockO * c.blockF * out[1] * out[2];
                        // One vertex for the tile's conv groups (PopLibs'
                        // createConvPartialAmpVertex, createConvPartialHorizontalMacVertex and
                        // the SLIC vertex take them all, the supervisor looping over them).
                        std::uint64_t vertex = 0;
                        if (weightUpdate) {
                            vertex = convWeightDeltaCycles(target, p.inputType, c.blockG, c.blockB,
                                                           c.blockO, c.blockI, blockOut, kernel,
                                                           use128BitConvUnitLoad);
                        } else {
                            vertex = ~std::uint64_t(0);
                            // SLIC's conv groups are split in grains of its grouping (PopLibs'
                            // conv group grain): a tile holds whole grains unless unsplit.
                            unsigned maxGrouping = 4;
                            while (sg > 1 && c.blockG % maxGrouping != 0)
                                maxGrouping /= 2;
                            for (ConvMethod m : methods) {
                                unsigned grouping = 1;
                                const std::uint64_t v = convVertexCycles(
                                    target, p.inputType, m, c.blockG, c.blockB, c.blockO, c.blockI,
                                    blockOut, kernel, innerStride, maxGrouping, &grouping,
                                    use128BitConvUnitLoad);
                                if (v < vertex)
                                    vertex = v, c.method = m,
                                    c.convGroupsPerGroup = m == ConvMethod::Slic ? grouping : 1;
                            }
                        }
                        c.vertexCycles = vertex;
                        // The exchange as PopLibs' planner charges it (lib/poplin/ConvPlan.cpp,
                        // addExchangeCycleEstimate): each operand a tile receives less the share
                        // already on it, the operands being "distributed evenly across all tiles
                        // that require them". The input block (the activations, in both passes)
                        // is read by the splitO tiles of adjacent output-channel blocks
                        // (tileOf); with an even split the two tiles of a super tile receive it
                        // together at twice the rate (ExchangeEstimator's input-element
                        // multiplier). The other operand (forward: the weights; weight deltas:
                        // the output gradients, the weight-update convolution's weights) is read
                        // by the tiles of the split dimensions it lacks: batch and rows for the
                        // weights, input channels for the gradients.
                        const std::uint64_t otherElems = weightUpdate ? outElems : wElems;
                        const std::uint64_t otherReaders = weightUpdate ? sI : sb * sf;
                        const std::uint64_t inputReceived = c.blockG * (inElems - inElems / so);
                        const std::uint64_t otherReceived =
                            c.blockG * (otherElems - otherElems / otherReaders);
                        const std::uint64_t received =
                            ceilDiv(inputReceived * inBytes, exchangeRate * busShare(so)) +
                            ceilDiv(otherReceived * inBytes, exchangeRate);
                        // TileScope's exchange takes the busier of a tile's two directions
                        // (CostModel::exchangeCycles); a tile's shares are multicast, sent once
                        // whoever reads them, so they bound it from below. PopLibs has no send
                        // term (as the matMul planner, MatMulPlanner.cpp).
                        const std::uint64_t sent = ceilDiv(
                            c.blockG * (ceilDiv(inElems, so) + ceilDiv(otherElems, otherReaders)) *
                                inBytes,
                            exchangeRate);
                        const std::uint64_t exchange = std::max(received, sent);
                        // The partials (addExchangeCycleEstimate and addReduceCycleEstimate):
                        // every tile's partials exchanged, in the partials' type, then
                        // estimateConvReduceCycles for the reduction-deep sums of its share of
                        // the outputs (forward: input channels; weight deltas: batch and rows).
                        const std::size_t parts = c.partials();
                        const std::uint64_t results = c.blockG * (weightUpdate ? wElems : outElems);
                        const std::uint64_t partialsExchange = partialSumExchangeCycles(
                            results, unsigned(parts), partialBytes, exchangeRate);
                        std::uint64_t reduction = 0;
                        if (parts > 1)
                            reduction =
                                reducePartialsTileCycles(target, partialsType, partialsType,
                                                         ceilDiv(results, parts), unsigned(parts));
                        c.exchangeCycles = exchange + partialsExchange;
                        c.reductionCycles = reduction;
                        c.estimatedCycles =
                            exchange + partialsExchange + c.vertexCycles + reduction;
                        c.bytesPerTile = c.blockG * (inElems * inBytes +
                                                     (weightUpdate ? outElems : wElems) * inBytes +
                                                     results * partialBytes);
                        // The SLIC vertex's second output buffer (addConvTempMemoryEstimate): one
                        // conv group group's partials plus 200 bytes.
                        if (c.method == ConvMethod::Slic && !weightUpdate)
                            c.bytesPerTile += slicBufferBytes(
                                results * partialBytes, ceilDiv(c.blockG, c.convGroupsPerGroup));
                        const bool fits = c.bytesPerTile <= limit;
                        if (fits && (!haveBest || c.estimatedCycles < best.estimatedCycles))
                            best = c, haveBest = true;
                        if (!haveSmallest || c.bytesPerTile < smallest.bytesPerTile)
                            smallest = c, haveSmallest = true;
                    }
    return haveBest ? best : smallest;
}

} // namespace tilescope::poplibs
