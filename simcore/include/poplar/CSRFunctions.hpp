#pragma once
// Floating-point control of the tiles (the SDK's poplar/CSRFunctions.hpp): which floating-point
// exceptions trap, NaN on overflow, and stochastic rounding.

#include "poplar/DebugContext.hpp"
#include "poplar/Graph.hpp"
#include "poplar/Program.hpp"

namespace poplar {

/// The floating-point behaviour of every tile: trap on invalid operations (inv), division by zero
/// (div0) and overflow (oflo); enable stochastic rounding (esr); give NaN on overflow (nanoo).
/// The simulator computes IEEE results on the host and raises no floating-point exceptions, so
/// inv, div0, oflo and nanoo are accepted and change nothing; stochastic rounding is not
/// simulated and is refused.
struct FloatingPointBehaviour {
    bool inv = true;
    bool div0 = true;
    bool oflo = true;
    bool esr = false;
    bool nanoo = true;

    FloatingPointBehaviour() {}
    FloatingPointBehaviour(bool inv_, bool div0_, bool oflo_, bool esr_, bool nanoo_)
        : inv(inv_), div0(div0_), oflo(oflo_), esr(esr_), nanoo(nanoo_) {}

    /// Every flag inverted.
    FloatingPointBehaviour operator!() const {
        return FloatingPointBehaviour(!inv, !div0, !oflo, !esr, !nanoo);
    }
};

/// Appends to `prog` the setting of `behaviour` on all tiles. Throws poplar_error when
/// `behaviour.esr` asks for stochastic rounding, which the simulator does not model.
void setFloatingPointBehaviour(Graph& graph, program::Sequence& prog,
                               const FloatingPointBehaviour& behaviour,
                               const DebugContext& debugContext = {});

/// Turns stochastic rounding on or off on all tiles: off is what the simulator always does;
/// on throws poplar_error naming the feature.
void setStochasticRounding(Graph& graph, program::Sequence& prog, bool behaviour,
                           const DebugContext& debugContext = {});

} // namespace poplar
