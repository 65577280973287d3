// print.h for codelets: as in the Poplar SDK, codelets include <print.h> and call printf. On
// TileScope's simulated IPU a vertex runs on the host, so printf writes to the host process's
// stdout (vertices of one compute set run in parallel, so lines from different tiles may
// interleave in any order, as on hardware).
#ifndef TILESCOPE_CODELET_PRINT_H
#define TILESCOPE_CODELET_PRINT_H

#include <stdio.h>

#endif
