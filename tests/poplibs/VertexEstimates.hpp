#pragma once
// What the per-vertex cycle tests read back from a built graph: the Mk2 target the worked
// figures assume, and the estimates PopLibs' builders gave the vertices of a compute set.

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Target.hpp>
#include <string>
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

/// The compiled cycles of the OnTileExecute step of compute set `cs` on `tile`.
inline std::uint64_t stepCycles(const poplar::Engine& e, std::int64_t cs, std::uint32_t tile) {
    for (const auto& s : e.compileRecords().steps)
        if (s.computeSet == cs)
            return s.estimatedCyclesPerTile.at(tile);
    FAIL("no step for compute set " << cs);
    return 0;
}

/// Elements read by the `src` fields of the vertices of compute sets whose name ends in
/// `suffix` (the transpositions of a regroup).
inline std::size_t elementsMovedIn(const poplar::Graph& graph, const std::string& suffix) {
    const auto& model = *graph.model();
    std::size_t moved = 0;
    for (const auto& cs : model.computeSets)
        if (cs.name.size() >= suffix.size() &&
            cs.name.compare(cs.name.size() - suffix.size(), suffix.size(), suffix) == 0)
            for (auto v : cs.vertices) {
                const auto& vertex = model.vertices[v];
                const auto& type = model.vertexTypes.at(vertex.type);
                for (std::size_t f = 0; f < type.fields.size(); ++f)
                    if (type.fields[f].name == "src")
                        for (const auto& item : vertex.fields[f].items)
                            moved += item->numElements();
            }
    return moved;
}

} // namespace poplibstest
