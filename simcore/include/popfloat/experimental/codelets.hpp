#pragma once
// popfloat::experimental::addCodelets: the vertices of popfloat's casts.

#include <poplar/Graph.hpp>

namespace popfloat {
namespace experimental {

/// Adds popfloat's vertex types to `graph` (needed before any GfloatCast cast on it; adding
/// them twice is harmless).
void addCodelets(poplar::Graph& graph);

} // namespace experimental
} // namespace popfloat
