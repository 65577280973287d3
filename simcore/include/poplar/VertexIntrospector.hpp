#pragma once
// VertexIntrospector, VertexPerfEstimate and PerfEstimateFunc are declared with Graph.
#include "poplar/Graph.hpp"
