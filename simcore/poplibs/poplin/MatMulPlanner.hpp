#pragma once
// The matMul planner: how to split an {M, K} x {K, N} product over the tiles of a target.

#include <cstddef>
#include <cstdint>
#include <poplar/Target.hpp>
#include <poplar/Type.hpp>
#include <string>

namespace tilescope::poplibs {

/// A split of the product into splitM x splitK x splitN blocks, one per tile, and its estimate.
struct MatMulPlan {
    std::size_t splitM = 1, splitK = 1, splitN = 1;
    std::size_t blockM = 0, blockK = 0, blockN = 0; ///< block sizes (the last may be smaller)
    std::uint64_t estimatedCycles = 0; ///< tile cycles: PopLibs' planner terms (MatMulPlanner.cpp)
    std::uint64_t bytesPerTile = 0;    ///< inputs and partials of one block
    bool fitsMemory = true;
    /// PopLibs' option use128BitConvUnitLoad: the AMP vertices load weights 128 bits at a time.
    bool use128BitConvUnitLoad = false;

    /// The tile of block (m, k, n): A's row blocks (the convolution's output channels)
    /// innermost, as PopLibs' linearizeConvIndices orders a convolution's tiles, so that the
    /// two tiles of a super tile read the same block of B and receive it at twice the rate.
    unsigned tileOf(std::size_t m, std::size_t k, std::size_t n) const {
        return static_cast<unsigned>((k * splitN + n) * splitM + m);
    }
    std::string describe() const;
};

/// The plan with the fewest estimated cycles among those whose per-tile bytes stay within
/// `availableMemoryProportion` of a tile's memory; if none fits, the plan using least memory
/// (compilation will then report the tiles out of memory).
MatMulPlan planMatMul(const poplar::Target& target, const poplar::Type& inputType,
                      const poplar::Type& partialsType, std::size_t M, std::size_t K, std::size_t N,
                      double availableMemoryProportion, bool use128BitConvUnitLoad = false);

} // namespace tilescope::poplibs
