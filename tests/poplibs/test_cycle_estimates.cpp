// The vertex cycle formulas that follow PopLibs' own estimators, checked against values worked
// out by hand from those estimators.

#include "common/CycleEstimates.hpp"

#include <catch2/catch.hpp>
#include <poplar/Target.hpp>

namespace cycles = tilescope::poplibs::cycles;

TEST_CASE("Fill follows PopLibs' Fill estimator") {
    const poplar::Target target = poplar::Target::createIPUTarget(1, "ipu2");
    // 16 before the loop + size/width stores + 6 after + 1 for a lone element + 1 alignment.
    CHECK(cycles::fill(target, poplar::FLOAT, 10) == 16 + 5 + 6 + 0 + 1);
    CHECK(cycles::fill(target, poplar::FLOAT, 11) == 16 + 5 + 6 + 1 + 1);
    CHECK(cycles::fill(target, poplar::HALF, 10) == 16 + 2 + 6 + 0 + 1);
    CHECK(cycles::fill(target, poplar::BOOL, 17) == 16 + 2 + 6 + 1 + 1);
}

TEST_CASE("Cast follows PopLibs' castWorkerCycles") {
    const poplar::Target target = poplar::Target::createIPUTarget(1, "ipu2");
    // FLOAT -> HALF on the auxiliary pipeline: 4 wide (2 loads of 2, 1 store of 4), 2 cycles
    // per vector (loads); remainder 2 of 4: bit 1 tested (1), bit 2 tested and set (1 + 2).
    CHECK(cycles::cast(target, poplar::FLOAT, poplar::HALF, 10) == 5 + 19 + 2 * 2 + 1 + 3);
    // HALF -> FLOAT: 2 wide (store-bound), 1 cycle per vector; remainder 1: bit 1 set.
    CHECK(cycles::cast(target, poplar::HALF, poplar::FLOAT, 9) == 5 + 19 + 4 + 3);
    // Anything else converts one element per 2 cycles with no remainder loop.
    CHECK(cycles::cast(target, poplar::INT, poplar::BOOL, 9) == 5 + 19 + 2 * 9);
}
