#pragma once
// What a poplin::PlanningCache holds: matMul plans and convolution plans, each by its key.

#include "poplin/ConvPlanner.hpp"
#include "poplin/MatMulPlanner.hpp"

#include <map>
#include <poplin/MatMul.hpp>
#include <string>
#include <tuple>

namespace poplin {

struct PlanningCache::Impl {
    std::map<std::tuple<unsigned, unsigned, std::size_t, std::size_t, std::size_t, double, unsigned,
                        bool>,
             tilescope::poplibs::MatMulPlan>
        plans;
    /// Convolution plans by the canonical parameters, pass and options they were made for.
    std::map<std::string, tilescope::poplibs::ConvPlan> convPlans;
};

} // namespace poplin
