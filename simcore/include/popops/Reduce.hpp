#pragma once
// The SDK's header for popops reductions: popops::reduce, reduceWithOutput, ReduceParams and
// Operation, declared in popops/Reduction.hpp.

#include <popops/Reduction.hpp>
