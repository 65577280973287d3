// libFuzzer target for the report reader: the input bytes become a file on disk, which is opened
// as an untrusted report (ReportFile, then ProfileReader or HostTraceReader) and walked through
// every reader API with bounded sizes. A ReportError is the expected outcome for damaged input;
// anything else (another exception, a crash, a sanitizer report, a hang) is a finding.
//
//   fuzz_report_reader CORPUS_DIR -runs=N      fuzz
//   fuzz_report_reader FILE...                 run given files through the sanitized reader

#include "tilescope/report/HostTraceReader.hpp"
#include "tilescope/report/ProfileReader.hpp"
#include "tilescope/report/ProfileSummary.hpp"
#include "tilescope/report/ReportError.hpp"

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <string>
#include <unistd.h>

using namespace tilescope::report;

namespace {

constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();
constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
// Per-tile vectors are allocated at the target's tile count; a forged target of a million tiles
// or more only measures the allocator, so such inputs skip the per-tile calls.
constexpr std::uint64_t kMaxTilesWalked = 1u << 20;

void removeSidecars(const std::string& path) {
    for (const char* suffix : {"-wal", "-shm", "-journal"})
        std::remove((path + suffix).c_str());
}

void walkProfile(const ProfileReader& r) {
    const bool perTile = r.target().numTiles() <= kMaxTilesWalked;
    r.counts();
    r.engineOptions();
    r.name(1);
    for (const auto& row : r.tileMemoryTotals())
        if (perTile)
            r.tileMemory(row.categoryId, row.regionId);
    if (perTile) {
        r.tileMemoryTotal(true);
        r.tileMemoryTotal(false);
        const auto placement = r.tilePlacement();
        if (!placement.empty())
            placement.physicalOrder(r.target().tilesPerIpu);
        summarize(r);
    }
    // Lightweight-profiling blocks (format v5): every row's kind is checked.
    r.blocks(0);
    r.blockTiles();
    r.blockStatistics();
    r.blocksOfRun(0, 0, ~0ull >> 1, 64);
    r.controlPrograms();
    int visited = 0;
    for (const auto& root : r.children(std::nullopt)) {
        if (++visited > 8)
            break;
        r.program(root.id);
        r.children(root.id);
        r.stepsOfProgram(root.id);
    }
    for (const auto& step : r.steps(0, 32, perTile)) {
        r.variablesLiveAt(step.id, perTile);
        if (perTile)
            r.notAlwaysLiveBytesAt(step.id);
        if (step.id > 4)
            break;
    }
    r.livenessLod(0, 0, 64);
    r.livenessLodLevelFor(16);
    r.computeSets(0, 16);
    r.vertexTypes();
    r.vertexInstances(std::nullopt, perTile);
    r.variables(0, 32, perTile);
    r.largestAlwaysLiveVariables(8);
    r.operations(0, 16);
    visited = 0;
    for (const auto& run : r.runs()) {
        if (++visited > 4)
            break;
        r.runSteps(run, 0, 32, perTile);
        r.runStepAtCycle(run, run.totalCycles / 2);
        for (std::int64_t level = 0; level < 3; ++level)
            r.runLod(run, level, 0, run.totalCycles);
        r.runLodLevelFor(run, 1e6);
    }
}

void walkHostTrace(const HostTraceReader& r) {
    r.counts();
    r.timeSpan();
    r.hasLevelOfDetail();
    r.name(1);
    r.processes();
    r.channels();
    r.graphs();
    r.eventLodLevelFor(1e6);
    r.sampleLodLevelFor(1e6);
    int visited = 0;
    for (const auto& thread : r.threads()) {
        if (++visited > 4)
            break;
        const std::int32_t deepest = r.maxDepth(thread.id);
        for (std::int32_t depth = 0; depth <= deepest && depth < 4; ++depth) {
            r.events(thread.id, depth, kMin, kMax, 32);
            for (std::int64_t level = 0; level < 3; ++level)
                r.eventLod(thread.id, depth, level, kMin, kMax);
        }
    }
    visited = 0;
    for (const auto& series : r.series()) {
        if (++visited > 4)
            break;
        r.samples(series.id, kMin, kMax, 32);
        for (std::int64_t level = 0; level < 3; ++level)
            r.sampleLod(series.id, level, kMin, kMax);
    }
}

/// The input's file: one per fuzzing process, so parallel jobs (-jobs, -fork) do not share it.
struct InputFile {
    std::string path = (std::filesystem::temp_directory_path() /
                        ("tilescope-fuzz-" + std::to_string(::getpid()) + ".pop"))
                           .string();
    ~InputFile() {
        removeSidecars(path);
        std::remove(path.c_str());
    }
};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const InputFile input;
    const std::string& path = input.path;
    removeSidecars(path); // a previous input's WAL must not leak into this one
    if (FILE* f = std::fopen(path.c_str(), "wb")) {
        if (size)
            std::fwrite(data, 1, size, f);
        std::fclose(f);
    } else {
        std::perror(path.c_str());
        std::abort();
    }
    try {
        ReportFile file(path);
        if (file.kind() == FileKind::Profile)
            walkProfile(ProfileReader(std::move(file)));
        else
            walkHostTrace(HostTraceReader(std::move(file)));
    } catch (const ReportError&) {
        // The expected outcome for damaged input: one clear error.
    }
    removeSidecars(path);
    return 0;
}
