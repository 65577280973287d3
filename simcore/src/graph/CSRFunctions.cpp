#include "poplar/CSRFunctions.hpp"

#include "poplar/exceptions.hpp"

namespace poplar {

namespace {

void refuseStochasticRounding(const char* where, const DebugContext& debugContext) {
    const std::string name = std::string(debugContext.getPathName());
    throw poplar_error(std::string(where) + (name.empty() ? "" : " ('" + name + "')") +
                       ": stochastic rounding is not supported by the TileScope simulator (it "
                       "rounds to nearest, ties to even); leave FloatingPointBehaviour::esr false");
}

} // namespace

void setFloatingPointBehaviour(Graph&, program::Sequence&, const FloatingPointBehaviour& behaviour,
                               const DebugContext& debugContext) {
    // The exception and NaN-on-overflow flags need no program step: the simulator raises no
    // floating-point exceptions whatever they are.
    if (behaviour.esr)
        refuseStochasticRounding("setFloatingPointBehaviour", debugContext);
}

void setStochasticRounding(Graph&, program::Sequence&, bool behaviour,
                           const DebugContext& debugContext) {
    if (behaviour)
        refuseStochasticRounding("setStochasticRounding", debugContext);
}

} // namespace poplar
