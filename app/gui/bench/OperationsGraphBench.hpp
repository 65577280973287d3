#pragma once
// The Operations Graph's figures for tilescope-bench-gui: building the graph of generated
// operations and painting it fitted, zoomed through every level and panned, with its layers
// closed and open, against the same figures for a demo-sized graph measured in the same run.

#include "tilescope/report/OperationRollup.hpp"

#include <cstddef>

namespace tilescope::gui {

/// `layers` layers of `perLayer` operations each (`layers * (perLayer + 1)` operations with the
/// layers themselves). Within a layer the operations form `branches` chains side by side, each
/// taking the output of the one `branches` before it; a layer's first chains take the previous
/// layer's last output, so the layers are linked one below the other.
report::RolledUpOperations generatedOperations(int layers, int perLayer, int branches);

/// Figures of one graph size, in ms.
struct GraphPaintFigures {
    std::size_t operations = 0, closedNodes = 0, openNodes = 0, edges = 0;
    double buildClosedMs = 0; ///< the graph as it opens (layers closed beyond 200 operations)
    double buildOpenMs = 0;   ///< every layer open
    double firstPaintMs = 0;  ///< building the graph as it opens plus its first fitted paint
    double closedWorstPaintMs = 0, openWorstPaintMs = 0; ///< over the zoom and pan sweep
    int framesPainted = 0;
    double worstPaintMs() const {
        return closedWorstPaintMs > openWorstPaintMs ? closedWorstPaintMs : openWorstPaintMs;
    }
};

/// Builds the graph of `ops` closed and open and paints each in a 1600 x 1000 widget: fitted,
/// then at every zoom level from the fit up to the largest (a factor of 2 apart) at the top,
/// middle and bottom of the layout. Each figure is the best of `passes` passes (a frame the
/// scheduler interrupted is not the graph's cost), and the worst over the sweep.
GraphPaintFigures benchOperationsGraph(const report::RolledUpOperations& ops, int passes);

} // namespace tilescope::gui
