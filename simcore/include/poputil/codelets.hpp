#pragma once
// poputil::addCodelets: poputil's own vertex types (none so far: its helpers build on popops).

#include <poplar/Graph.hpp>

namespace poputil {

/// Present for source compatibility with PopLibs programs, which call it for every library;
/// poputil has no vertices of its own, so it leaves the graph unchanged.
inline void addCodelets(poplar::Graph&) {}

} // namespace poputil
