#pragma once
// PopLibs option defaults from outside the program (TILESCOPE_POPLIBS_OPTIONS, a TileScope
// extension): an operation asks for its options with the environment's defaults filled in.

#include <poplar/OptionFlags.hpp>
#include <string>

namespace tilescope::poplibs {

/// `given` with the defaults of `operation` ("matmul", "convolution", ...) from
/// TILESCOPE_POPLIBS_OPTIONS added for each option the program did not set (the program's own
/// options win). A malformed variable throws poplar::invalid_option naming it.
poplar::OptionFlags withOptionDefaults(const std::string& operation,
                                       const poplar::OptionFlags& given);

} // namespace tilescope::poplibs
