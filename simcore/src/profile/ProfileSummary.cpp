#include "tilescope/sim/ProfileSummary.hpp"

#include "NumberFormat.hpp"

#include <algorithm>
#include <cstdio>
#include <iomanip>
#include <map>
#include <numeric>
#include <sstream>
#include <string>

namespace tilescope::sim {

using namespace capture;

namespace {

std::string bytes(std::uint64_t b) {
    char buf[64];
    if (b >= 1024ull * 1024 * 1024)
        std::snprintf(buf, sizeof buf, "%.2f GiB", b / (1024.0 * 1024 * 1024));
    else if (b >= 1024ull * 1024)
        std::snprintf(buf, sizeof buf, "%.2f MiB", b / (1024.0 * 1024));
    else if (b >= 1024)
        std::snprintf(buf, sizeof buf, "%.1f KiB", b / 1024.0);
    else
        std::snprintf(buf, sizeof buf, "%llu B", static_cast<unsigned long long>(b));
    return buf;
}

void row(std::ostream& out, int indent, const std::string& label, const std::string& value) {
    out << std::string(static_cast<std::size_t>(indent), ' ') << std::left << std::setw(40 - indent)
        << (label + ":") << value << '\n';
}

std::uint64_t sum(const PerTile& v) {
    return std::accumulate(v.begin(), v.end(), std::uint64_t{0});
}

std::uint64_t maxOf(const PerTile& v) {
    return v.empty() ? 0 : *std::max_element(v.begin(), v.end());
}

} // namespace

void printProfileSummary(std::ostream& out, const CompileRecords& c, const ExecutionRecords& e,
                         const ProfileSummaryOptions& options) {
    const auto& t = c.target;
    const std::uint32_t numTiles = t.numTiles();
    out << "Target:\n";
    row(out, 2, "Type", t.type + " (" + t.architecture + ")");
    row(out, 2, "Number of IPUs", groupDigits(t.numIpus));
    row(out, 2, "Tiles per IPU", groupDigits(t.tilesPerIpu));
    row(out, 2, "Total tiles", groupDigits(numTiles));
    row(out, 2, "Memory per tile", bytes(t.bytesPerTile));
    row(out, 2, "Total memory", bytes(t.bytesPerTile * numTiles));
    row(out, 2, "Clock speed", groupDigits(static_cast<std::uint64_t>(t.clockHz / 1e6)) + " MHz");
    out << '\n';

    out << "Graph:\n";
    row(out, 2, "Number of vertices", groupDigits(c.numVertices));
    row(out, 2, "Number of edges", groupDigits(c.numEdges));
    row(out, 2, "Number of variables", groupDigits(c.variables.size()));
    row(out, 2, "Number of compute sets", groupDigits(c.computeSets.size()));
    row(out, 2, "Number of program steps", groupDigits(c.steps.size()));
    out << '\n';

    out << "Memory Usage:\n";
    if (!c.ipuCodeCompiled)
        row(out, 2, "IPU code", "not compiled (IPUModel::compileIPUCode is false)");
    std::uint64_t total = 0, gaps = 0, maxTile = 0;
    std::uint32_t maxTileIndex = 0;
    for (std::uint32_t tile = 0; tile < numTiles; ++tile) {
        const auto tt = c.memory.tileTotal(tile);
        total += tt;
        if (tt > maxTile) {
            maxTile = tt;
            maxTileIndex = tile;
        }
        gaps += c.memory.categoryOnTile(MemoryCategory::Gap, tile);
    }
    out << "  Total for all IPUs:\n";
    row(out, 4, "Including gaps", groupDigits(total) + " B (" + bytes(total) + ")");
    row(out, 4, "Excluding gaps", groupDigits(total - gaps) + " B (" + bytes(total - gaps) + ")");
    out << "  By memory region:\n";
    for (std::size_t r = 0; r < kNumMemoryRegions; ++r) {
        std::uint64_t s = 0;
        for (std::size_t cat = 0; cat < kNumMemoryCategories; ++cat)
            s += sum(c.memory.bytes[cat][r]);
        row(out, 4, std::string(memoryRegionName(static_cast<MemoryRegionKind>(r))),
            groupDigits(s) + " B");
    }
    out << "  By category:\n";
    for (std::size_t cat = 0; cat < kNumMemoryCategories; ++cat) {
        std::uint64_t s = 0;
        for (std::size_t r = 0; r < kNumMemoryRegions; ++r)
            s += sum(c.memory.bytes[cat][r]);
        row(out, 4, std::string(memoryCategoryName(static_cast<MemoryCategory>(cat))),
            groupDigits(s) + " B");
    }
    out << "  Tiles:\n";
    row(out, 4, "Largest tile",
        groupDigits(maxTile) + " B on tile " + groupDigits(maxTileIndex) + " (" +
            std::to_string(t.bytesPerTile ? 100 * maxTile / t.bytesPerTile : 0) + "% of " +
            bytes(t.bytesPerTile) + ")");
    row(out, 4, "Tiles out of memory", groupDigits(c.tilesOutOfMemory.size()));
    std::uint64_t peakNal = 0;
    std::size_t peakStep = 0;
    for (std::size_t s = 0; s < c.steps.size(); ++s) {
        const auto b = sum(c.steps[s].notAlwaysLiveBytesPerTile);
        if (b > peakNal) {
            peakNal = b;
            peakStep = s;
        }
    }
    row(out, 4, "Not-always-live peak",
        groupDigits(peakNal) + " B at step " + groupDigits(peakStep));

    if (options.showVarStorage) {
        out << "  Largest variables:\n";
        std::vector<std::size_t> order(c.variables.size());
        std::iota(order.begin(), order.end(), 0);
        auto varBytes = [&](std::size_t v) { return sum(c.variables[v].bytesPerTile); };
        std::stable_sort(order.begin(), order.end(),
                         [&](auto a, auto b) { return varBytes(a) > varBytes(b); });
        for (std::size_t i = 0; i < std::min<std::size_t>(order.size(), 20); ++i) {
            const auto& v = c.variables[order[i]];
            std::string live = v.alwaysLive ? "always live"
                               : v.firstLiveStep < 0
                                   ? "never live"
                                   : "live steps " + std::to_string(v.firstLiveStep) + "-" +
                                         std::to_string(v.lastLiveStep);
            row(out, 4, v.name,
                groupDigits(varBytes(order[i])) + " B, " + v.elementType + ", " + live);
        }
    }
    out << '\n';

    out << "Execution:\n";
    row(out, 2, "Runs", groupDigits(e.runs.size()));
    const auto detailed = static_cast<std::size_t>(std::count_if(
        e.runs.begin(), e.runs.end(), [](const auto& r) { return r.stepsRecorded; }));
    if (detailed < e.runs.size())
        row(out, 2, "Runs with steps",
            groupDigits(detailed) + " (executionProfileProgramRunCount per program)");
    std::uint64_t cycles = 0;
    std::map<StepKind, std::uint64_t> byKind;
    std::uint64_t busy = 0, busyMax = 0;
    for (const auto& run : e.runs) {
        cycles += run.totalCycles;
        for (const auto& s : run.steps) {
            const auto& perTile = s.perTileCycles();
            const auto m = maxOf(perTile);
            byKind[c.steps[s.step].kind] += m;
            if (c.steps[s.step].kind == StepKind::OnTileExecute && m > 0) {
                // Balance over the tiles that work in the step: mean busy / slowest.
                const auto active = static_cast<std::uint64_t>(std::count_if(
                    perTile.begin(), perTile.end(), [](auto x) { return x > 0; }));
                busy += sum(perTile);
                busyMax += m * active;
            }
        }
    }
    char timeBuf[64];
    std::snprintf(timeBuf, sizeof timeBuf, "%.3f us",
                  t.clockHz > 0 ? cycles / t.clockHz * 1e6 : 0.0);
    row(out, 2, "Total cycles", groupDigits(cycles) + " (" + timeBuf + ")");
    out << "  Cycles by step kind:\n";
    for (const auto& [kind, n] : byKind)
        row(out, 4, std::string(stepKindName(kind)), groupDigits(n));
    if (busyMax > 0) {
        char bal[32];
        std::snprintf(bal, sizeof bal, "%.1f%%", 100.0 * static_cast<double>(busy) / busyMax);
        row(out, 2, "Compute tile balance", bal);
    }
    if (options.showExecutionSteps) {
        for (std::size_t r = 0; r < e.runs.size(); ++r) {
            const auto& run = e.runs[r];
            out << "  Run " << r << " (program " << run.programIndex << "):\n";
            out << "    " << std::left << std::setw(8) << "Step" << std::setw(18) << "Kind"
                << std::setw(14) << "Start" << std::setw(12) << "Cycles"
                << "Name\n";
            for (const auto& s : run.steps) {
                const auto& st = c.steps[s.step];
                out << "    " << std::left << std::setw(8) << s.step << std::setw(18)
                    << stepKindName(st.kind) << std::setw(14) << groupDigits(s.startCycle)
                    << std::setw(12) << groupDigits(maxOf(s.perTileCycles())) << st.name << '\n';
            }
        }
    }
}

} // namespace tilescope::sim
