// A program written against the pva-style face only, as a user would write it against libpva:
// it opens a report and prints its main figures. The install test builds it against the installed
// package (pkg-config and find_package) and checks what it prints.

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <pva/pva.hpp>

int main(int argc, char* argv[]) {
    if (argc != 2) {
        std::cerr << "usage: pva_example REPORT\n";
        return 2;
    }
    try {
        const auto report = pva::openReport(argv[1]);
        std::cout << "poplar version: " << report.poplarVersion().string() << "\n";

        const auto target = report.compilation().target();
        std::cout << "tiles: " << target.numTiles() << "\n"
                  << "IPUs: " << target.numIPUs() << "\n"
                  << "tiles per IPU: " << target.tilesPerIPU() << "\n"
                  << "bytes per tile: " << target.bytesPerTile() << "\n"
                  << "clock frequency: " << static_cast<std::uint64_t>(target.clockFrequency())
                  << "\n"
                  << "replicas: " << target.numReplicas() << "\n";

        std::cout << "compute sets: " << report.compilation().graph().numComputeSets() << "\n";

        std::uint64_t vertexCode = 0, totalIncludingGaps = 0;
        for (const auto& tile : report.compilation().tiles()) {
            vertexCode += tile.memory().category().vertexCode.total();
            totalIncludingGaps += tile.memory().total().includingGaps();
        }
        std::cout << "vertex code bytes: " << vertexCode << "\n"
                  << "memory including gaps: " << totalIncludingGaps << "\n";

        std::cout << "programs:";
        for (const auto& program : report.compilation().programs())
            std::cout << " " << program->name();
        std::cout << "\n";
        std::cout << "compute set names:";
        for (const auto& cs : report.compilation().computeSets())
            std::cout << " " << cs.name();
        std::cout << "\n";
        std::cout << "variables:";
        for (const auto& variable : report.compilation().variables())
            std::cout << " " << variable.name() << "=" << variable.size();
        std::cout << "\n";

        std::uint64_t peak = 0;
        const auto steps = report.compilation().livenessProgramSteps();
        for (const auto& step : steps)
            peak = std::max(peak, step.notAlwaysLiveMemory().bytes());
        std::cout << "liveness steps: " << steps.size() << ", peak not-always-live bytes: " << peak
                  << "\n";

        for (const auto& run : report.execution().runs()) {
            std::cout << "run of " << run.program()->name() << ": "
                      << run.microseconds().end() - run.microseconds().start() << " us\n";
            for (const auto& step : run.steps()) {
                std::cout << "  " << step.program()->name() << " cycles " << step.cyclesFrom()
                          << "-" << step.cyclesTo() << " by tile:";
                for (const auto cycles : step.cyclesByTile())
                    std::cout << " " << cycles;
                std::cout << "\n";
            }
        }
    } catch (const pva::error& e) {
        std::cerr << e.what() << "\n";
        return 1;
    }
    return EXIT_SUCCESS;
}
