// Prints, one fact a line, what the C++ pva face reads from a report: the reference the Python
// tests compare `pva` with ("tiles N", "memory TILE BYTES", "step RUN INDEX CYCLES PROGRAM").
#include "pva/pva.hpp"

#include <iostream>

int main(int argc, char** argv) {
    if (argc != 2) {
        std::cerr << "usage: report_figures PROFILE\n";
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
