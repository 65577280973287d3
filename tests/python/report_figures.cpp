// Prints, one fact a line, what the C++ readers read: for a report (pva face) "tiles N",
// "memory TILE BYTES", "step RUN INDEX CYCLES PROGRAM"; for a host trace (--trace FILE)
// "thread TID EVENTS". The reference the Python tests compare `pva` with.
#include "pva/pva.hpp"
#include "tilescope/report/HostTraceReader.hpp"

#include <iostream>
#include <limits>
#include <string>

namespace {

int printTrace(const std::string& path) {
    const tilescope::report::HostTraceReader reader(path);
    constexpr auto kAll = std::numeric_limits<std::int64_t>::max();
    for (const auto& thread : reader.threads()) {
        std::size_t events = 0;
        for (std::int32_t depth = 0; depth <= reader.maxDepth(thread.id); ++depth)
            events +=
                reader
                    .events(thread.id, depth, std::numeric_limits<std::int64_t>::min(), kAll, kAll)
                    .size();
        std::cout << "thread " << thread.tid << " " << events << "\n";
    }
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    if (argc == 3 && std::string(argv[1]) == "--trace")
        return printTrace(argv[2]);
    if (argc != 2) {
        std::cerr << "usage: report_figures PROFILE | report_figures --trace FILE.pvti\n";
        return 2;
    }
    const pva::Report report = pva::openReport(argv[1]);
    const auto compilation = report.compilation();
    std::cout << "tiles " << compilation.target().numTiles() << "\n";
    for (const auto& tile : compilation.tiles())
        std::cout << "memory " << tile.number() << " " << tile.memory().total().includingGaps()
                  << "\n";
    std::cout << "computeSets " << compilation.graph().numComputeSets() << "\n";
    const auto runs = report.execution().runs();
    for (std::size_t r = 0; r < runs.size(); ++r) {
        const auto steps = runs[r].steps();
        for (std::size_t i = 0; i < steps.size(); ++i)
            std::cout << "step " << r << " " << i << " " << steps[i].cycles() << " "
                      << (steps[i].program() ? steps[i].program()->name() : "-") << "\n";
    }
    return 0;
}
