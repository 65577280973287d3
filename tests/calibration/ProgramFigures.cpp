#include "ProgramFigures.hpp"

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <poplin/codelets.hpp>
#include <popops/codelets.hpp>
#include <stdexcept>
#include <tilescope/capture/ProfileRecords.hpp>

namespace tilescope::calibration {

using capture::MemoryCategory;
using capture::MemoryRegionKind;
using capture::StepKind;

std::uint64_t RunFigures::operationCycles(const std::string& prefix) const {
    for (const auto& [name, cycles] : operations)
        if (name == prefix)
            return cycles;
    throw std::runtime_error("calibration: no operation '" + prefix + "' in the program");
}

namespace {

/// The program nodes under `root`, itself included.
void collectNodes(const capture::CompileRecords& c, std::uint32_t root, std::vector<bool>& inside) {
    if (inside[root])
        return;
    inside[root] = true;
    for (auto child : c.programs[root].children)
        collectNodes(c, child, inside);
}

} // namespace

RunFigures runProgram(const poplar::IPUModel& model,
                      const std::function<poplar::program::Program(poplar::Graph&)>& build,
                      const std::function<void(poplar::Engine&)>& connect,
                      const std::vector<std::string>& operationPrefixes) {
    poplar::Device device = model.createDevice();
    poplar::Graph graph(device.getTarget());
    popops::addCodelets(graph);
    poplin::addCodelets(graph);
    poplar::program::Program prog = build(graph);
    poplar::Engine engine(graph, prog);
    engine.load(device);
    if (connect)
        connect(engine);
    engine.run(0);

    const auto& c = engine.compileRecords();
    const auto& e = engine.executionRecords();
    if (e.runs.size() != 1)
        throw std::runtime_error("calibration: expected one run");
    const auto& run = e.runs.front();
    const std::size_t tiles = c.target.numTiles();
    RunFigures f;
    f.runCycles = run.totalCycles;
    f.computeSets = c.computeSets.size();
    f.vertices = c.numVertices;

    // Each tile's own cycles by phase; what is left of the run is sync and waiting.
    std::uint64_t compute = 0, exchange = 0, host = 0;
    for (const auto& s : run.steps) {
        const auto& perTile = s.perTileCycles();
        std::uint64_t total = 0;
        for (auto x : perTile)
            total += x;
        switch (c.steps[s.step].kind) {
        case StepKind::OnTileExecute:
            compute += total;
            break;
        case StepKind::DoExchange:
        case StepKind::GlobalExchange:
            exchange += total;
            break;
        case StepKind::StreamCopyBegin:
        case StepKind::StreamCopyMid:
        case StepKind::StreamCopyEnd:
            host += total;
            break;
        case StepKind::Sync:
            break;
        }
    }
    const double n = double(tiles);
    f.computeCycles = double(compute) / n;
    f.exchangeCycles = double(exchange) / n;
    f.hostExchangeCycles = double(host) / n;
    f.syncCycles =
        double(run.totalCycles) - f.computeCycles - f.exchangeCycles - f.hostExchangeCycles;

    for (std::size_t cat = 0; cat < capture::kNumMemoryCategories; ++cat) {
        const auto category = static_cast<MemoryCategory>(cat);
        for (std::size_t r = 0; r < capture::kNumMemoryRegions; ++r) {
            std::uint64_t bytes = 0;
            for (auto b : c.memory.bytes[cat][r])
                bytes += b;
            f.bytesIncludingGaps += bytes;
            if (category == MemoryCategory::Gap)
                continue;
            f.bytesExcludingGaps += bytes;
            (static_cast<MemoryRegionKind>(r) == MemoryRegionKind::Interleaved
                 ? f.interleavedBytes
                 : f.nonInterleavedBytes) += bytes;
            // Always-live as PopVision's liveness lists it: variables, vertex state and field
            // data, descriptors, headers, instrumentation; not the stack (nor code, which an IPU
            // Model does not compile).
            if (category != MemoryCategory::NotAlwaysLiveVariables &&
                category != MemoryCategory::Stack)
                f.alwaysLiveBytes += bytes;
        }
    }

    // TILESCOPE_CALIBRATION_VERBOSE=1 prints the run step by step (to see where cycles go).
    if (const char* verbose = std::getenv("TILESCOPE_CALIBRATION_VERBOSE"); verbose && *verbose) {
        for (const auto& s : run.steps) {
            const auto& st = c.steps[s.step];
            const auto& perTile = s.perTileCycles();
            const auto most =
                perTile.empty() ? 0 : *std::max_element(perTile.begin(), perTile.end());
            std::uint64_t sum = 0;
            for (auto x : perTile)
                sum += x;
            std::cerr << capture::stepKindName(st.kind) << "\tmax " << most << "\tmean "
                      << (perTile.empty() ? 0 : sum / perTile.size()) << "\t" << st.name << "\n";
        }
        for (const auto& cs : c.computeSets)
            std::cerr << "compute set " << cs.name << ": " << cs.numVertices << " vertices\n";
        for (const auto& op : c.operations)
            std::cerr << "operation " << op.debugPath << ": " << op.debugJson << "\n";
    }

    // Operations: the steps of their program nodes and everything beneath them, per execution.
    for (const auto& prefix : operationPrefixes) {
        std::vector<bool> inside(c.programs.size(), false);
        bool found = false;
        for (const auto& op : c.operations)
            if (op.debugPath.compare(0, prefix.size(), prefix) == 0) {
                found = true;
                for (auto p : op.programs)
                    collectNodes(c, p, inside);
            }
        if (!found)
            throw std::runtime_error("calibration: no operation with debug path '" + prefix +
                                     "...'");
        // A tile that finishes a step early waits for the others in the sync that follows, so
        // every tile spends the step's duration in the operation.
        std::uint64_t cycles = 0;
        for (const auto& s : run.steps)
            if (inside[c.steps[s.step].program] && !s.perTileCycles().empty())
                cycles +=
                    *std::max_element(s.perTileCycles().begin(), s.perTileCycles().end()) * tiles;
        f.operations.emplace_back(prefix, cycles);
    }
    return f;
}

} // namespace tilescope::calibration
