// Writes a synthetic report (and host trace) for the Python benchmark:
//   python_test_synthetic DIR STEPS_PER_RUN HOST_EVENTS
#include "tilescope/report/SyntheticReport.hpp"

#include <iostream>
#include <string>

int main(int argc, char** argv) {
    if (argc != 4) {
        std::cerr << "usage: python_test_synthetic DIR STEPS_PER_RUN HOST_EVENTS\n";
        return 2;
    }
    tilescope::report::SyntheticSpec spec;
    spec.tilesPerIpu = 16;
    spec.runs = 1;
    spec.steps = std::stoull(argv[2]);
    spec.hostEvents = std::stoull(argv[3]);
    spec.perTileCycles = false;
    const auto out = tilescope::report::generateSyntheticReport(argv[1], spec);
    std::cout << out.profile.string() << "\n" << out.hostTrace.string() << "\n";
    return 0;
}
