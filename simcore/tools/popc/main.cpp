// popc: compiles Poplar codelet sources ahead of time into a codelet object file (OUT.gp) that
// Graph::addCodelets loads, with the Poplar SDK's command line. The codelets are compiled for
// the host (TileScope simulates the IPU), once per --target.

#include "poplar/exceptions.hpp"
#include "tilescope/sim/CodeletBuildOptions.hpp"
#include "tilescope/sim/CodeletCompiler.hpp"

#include <CLI/CLI.hpp>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

namespace {

constexpr int kUsageError = 2;

} // namespace

int main(int argc, char** argv) {
    CLI::App app{"popc: compile Poplar codelets ahead of time into a codelet object (OUT.gp) for "
                 "Graph::addCodelets. TileScope builds them for its simulated IPU.",
                 "popc"};
    app.set_version_flag("--version", std::string("popc (TileScope) ") + TILESCOPE_VERSION);

    std::string optimisation;
    bool debug = false;
    std::vector<std::string> includeDirs, defines, undefines, warnings;
    std::string targets = "ipu2";
    std::vector<std::string> sources;
    std::string output;

    app.add_option("-O", optimisation, "Optimisation level (-O0, -O1, -O2 (default), -O3)")
        ->check(CLI::IsMember({"0", "1", "2", "3", "s", "g"}));
    app.add_flag("-g", debug, "Include debug information");
    app.add_option("-I", includeDirs, "Add DIR to the include search path")
        ->type_name("DIR")
        ->allow_extra_args(false);
    app.add_option("-D", defines, "Define macro NAME (as VALUE, default 1)")
        ->type_name("NAME[=VALUE]")
        ->allow_extra_args(false);
    app.add_option("-U", undefines, "Undefine macro NAME")
        ->type_name("NAME")
        ->allow_extra_args(false);
    app.add_option("-W", warnings, "Warning option passed to the compiler (-Wall, -Werror, ...)")
        ->type_name("WARNING")
        ->allow_extra_args(false);
    app.add_option("--target", targets,
                   "Comma-separated IPU architectures to build for: ipu1, ipu2, ipu21 "
                   "(default ipu2)")
        ->type_name("TARGETS");
    app.add_option("-o", output, "Output codelet object file")->required()->type_name("OUT.gp");
    app.add_option("sources", sources, "Codelet source files")->required()->type_name("SOURCES");

    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        std::cerr << "popc: error: " << e.what() << "\nRun 'popc --help' for the options.\n";
        return kUsageError;
    }

    tilescope::sim::CodeletBuildOptions options;
    try {
        // The same checks Graph::addCodelets applies to its compile flags.
        std::string flags = optimisation.empty() ? "" : "-O" + optimisation;
        if (debug)
            flags += " -g";
        for (const auto& d : defines)
            flags += " -D" + d;
        for (const auto& u : undefines)
            flags += " -U" + u;
        for (const auto& w : warnings)
            flags += " -W" + w;
        tilescope::sim::parseCodeletCompileFlags(flags, options);
        for (const auto& dir : includeDirs) // relative to the working directory, as with -I
            options.includeDirs.push_back(std::filesystem::absolute(dir).lexically_normal());
        options.targets = tilescope::sim::parseTargetList(targets);
    } catch (const std::exception& e) {
        std::cerr << "popc: error: " << e.what() << "\n";
        return kUsageError;
    }

    try {
        const std::string messages =
            tilescope::sim::CodeletCompiler::buildObject(sources, options, output);
        std::cerr << messages;
    } catch (const poplar::graph_program_compilation_error& e) {
        std::cerr << "popc: " << e.what() << "\n";
        return 1;
    } catch (const std::exception& e) {
        // The library's messages are worded for Graph::addCodelets; popc speaks for itself.
        std::string what = e.what();
        const std::string prefix = "addCodelets: ";
        if (what.compare(0, prefix.size(), prefix) == 0)
            what.erase(0, prefix.size());
        std::cerr << "popc: error: " << what << "\n";
        return 1;
    }
    return 0;
}
