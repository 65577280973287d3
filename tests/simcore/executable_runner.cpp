// Helper for the separate-process executable test:
//   executable_runner direct <codelets.cpp>         builds the graph, runs it with a direct Engine
//   executable_runner save <codelets.cpp> <file>    builds, compiles and writes the executable
//   executable_runner load <file>                   reads the executable and runs it (no graph)
// Results go to stdout in the same format, so the test compares them as text.

#include "ExecutableTestGraph.hpp"

#include <fstream>
#include <iostream>

int main(int argc, char** argv) {
    const std::string mode = argc > 1 ? argv[1] : "";
    try {
        if (mode == "direct" && argc == 3) {
            auto b = exectest::buildGraph(argv[2]);
            poplar::Engine engine(b.graph, b.programs);
            std::cout << exectest::runAndPrint(engine);
            return 0;
        }
        if (mode == "save" && argc == 4) {
            auto b = exectest::buildGraph(argv[2]);
            auto exe = poplar::compileGraph(b.graph, b.programs);
            std::ofstream out(argv[3], std::ios::binary);
            exe.serialize(out);
            return out ? 0 : 1;
        }
        if (mode == "load" && argc == 3) {
            std::ifstream in(argv[2], std::ios::binary);
            poplar::Engine engine(poplar::Executable::deserialize(in));
            std::cout << exectest::runAndPrint(engine);
            return 0;
        }
    } catch (const poplar::poplar_error& e) {
        std::cerr << e.type << ": " << e.what() << "\n";
        return 2;
    }
    std::cerr << "usage: executable_runner direct <codelets> | save <codelets> <file> | load "
                 "<file>\n";
    return 64;
}
