#pragma once
// What the per-vertex cycle tests read back from a built graph: the Mk2 target the worked
// figures assume, and the estimates PopLibs' builders gave the vertices of a compute set.

#include <algorithm>
#include <cstdint>
#include <poplar/Graph.hpp>
#include <poplar/Target.hpp>
#include <tilescope/sim/GraphModel.hpp>
#include <vector>

namespace poplibstest {

/// One Mk2 IPU: the target PopLibs' estimators are worked out for in these tests.
inline poplar::Target ipu2() {
    return poplar::Target::createIPUTarget(1, "ipu2");
}

/// The estimates of the vertices of compute set `cs` on `tile`, largest first.
inline std::vector<std::uint64_t> vertexEstimates(const poplar::Graph& g, std::uint32_t cs,
                                                  std::int32_t tile) {
    std::vector<std::uint64_t> out;
    for (const auto& v : g.model()->vertices)
        if (v.computeSet == cs && v.tile == tile)
            out.push_back(v.perfEstimate.value_or(0));
    std::sort(out.rbegin(), out.rend());
    return out;
}

} // namespace poplibstest
