// Loads and runs an executable in a process that links libpoplar only: the PopLibs vertices it
// uses must be found by loading the PopLibs libraries on demand.
//   executable_loader <file>

#include "ExecutableTestRun.hpp"

#include <fstream>
#include <iostream>
#include <poplar/Executable.hpp>

int main(int argc, char** argv) {
    if (argc != 2) {
        std::cerr << "usage: executable_loader <file>\n";
        return 64;
    }
    try {
        std::ifstream in(argv[1], std::ios::binary);
        poplar::Engine engine(poplar::Executable::deserialize(in));
        std::cout << exectest::runAndPrint(engine);
    } catch (const poplar::poplar_error& e) {
        std::cerr << e.type << ": " << e.what() << "\n";
        return 2;
    }
    return 0;
}
