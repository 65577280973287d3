#pragma once
// TileScope extension for codelets whose cost depends on their data. The simulator's cycle model
// takes a vertex's cycles from its estimate (setPerfEstimate, registerPerfEstimator or the default
// per-element cost), the same on every execution; on the IPU a vertex that loops over its data
// takes longer on some executions. A compute() may call tilescope_vertex_add_cycles() to add tile
// cycles to this execution of its tile, on top of the estimate; the engine's step record (and any
// lightweight-profiling block around it) then shows that execution's own cycles. Compiles under
// C++11 and later; the function is provided by libpoplar.

#include <stdint.h>

extern "C" void tilescope_vertex_add_cycles(uint64_t tileCycles);
