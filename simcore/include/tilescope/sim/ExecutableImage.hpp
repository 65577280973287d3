#pragma once
// What a poplar::Executable holds: the compiled graph and what it was compiled from, so it can be
// written to a file (GraphModelSerializer) and run by an Engine in this or another process.

#include "tilescope/sim/CompiledGraph.hpp"
#include "tilescope/sim/GraphModelSerializer.hpp"

#include <memory>
#include <vector>

namespace tilescope::sim {

struct ExecutableImage {
    std::shared_ptr<const GraphModel> model;
    std::vector<ProgramNodePtr> programs;
    OptionList compileOptions; ///< the options given to compileGraph (or stored in the file)
    std::shared_ptr<const CompiledGraph> compiled;
};

/// Engine options that only affect compilation: taken from compileGraph, ignored when given to
/// an Engine built from an executable (as the Poplar SDK does).
bool isCompileTimeOption(const std::string& name);

} // namespace tilescope::sim
