#pragma once
// The SDK's header for popops::Operation, the reduction operations (declared with the
// reductions in popops/Reduction.hpp).

#include <popops/Reduction.hpp>
