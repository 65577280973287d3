#include "CompiledFigures.hpp"

#include <poplar/Engine.hpp>
#include <poplin/codelets.hpp>
#include <popnn/codelets.hpp>
#include <popops/codelets.hpp>
#include <stdexcept>
#include <tilescope/capture/ProfileRecords.hpp>
#include <tilescope/sim/GraphModel.hpp>

namespace tilescope::calibration {

namespace {

poplar::Graph graphWithCodelets(const std::string& arch, unsigned tiles) {
    poplar::Graph graph(poplar::Target::createIPUTarget(1, tiles, arch));
    popops::addCodelets(graph);
    poplin::addCodelets(graph);
    popnn::addCodelets(graph);
    return graph;
}

} // namespace

std::uint64_t
computeSetCycles(const std::string& arch, unsigned tiles,
                 const std::function<void(poplar::Graph&, poplar::program::Sequence&)>& build,
                 const std::string& computeSet, unsigned tile) {
    poplar::Graph graph = graphWithCodelets(arch, tiles);
    poplar::program::Sequence prog;
    build(graph, prog);
    std::int64_t wanted = -1;
    const auto& sets = graph.model()->computeSets;
    for (std::size_t i = 0; i < sets.size() && wanted < 0; ++i) {
        const std::string& name = sets[i].name;
        if (name.size() >= computeSet.size() &&
            name.compare(name.size() - computeSet.size(), computeSet.size(), computeSet) == 0)
            wanted = std::int64_t(i);
    }
    if (wanted < 0)
        throw std::runtime_error("calibration: no compute set named '..." + computeSet + "'");
    poplar::Engine engine(graph, prog);
    for (const auto& step : engine.compileRecords().steps)
        if (step.computeSet == wanted)
            return step.estimatedCyclesPerTile.at(tile);
    throw std::runtime_error("calibration: compute set '" + computeSet + "' has no step");
}

double
meanBytesPerUsedTile(const std::string& arch, unsigned tiles,
                     const std::function<void(poplar::Graph&, poplar::program::Sequence&)>& build,
                     capture::MemoryCategory category) {
    poplar::Graph graph = graphWithCodelets(arch, tiles);
    poplar::program::Sequence prog;
    build(graph, prog);
    poplar::Engine engine(graph, prog);
    const auto& records = engine.compileRecords();
    std::uint64_t total = 0;
    std::uint64_t usedTiles = 0;
    for (std::size_t tile = 0; tile < records.target.numTiles(); ++tile) {
        const std::uint64_t bytes = records.memory.categoryOnTile(category, tile);
        total += bytes;
        usedTiles += bytes > 0 ? 1 : 0;
    }
    if (usedTiles == 0)
        throw std::runtime_error("calibration: no tile holds memory category '" +
                                 std::string(capture::memoryCategoryName(category)) + "'");
    return double(total) / double(usedTiles);
}

} // namespace tilescope::calibration
