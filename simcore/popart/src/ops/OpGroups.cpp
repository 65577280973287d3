#include "ops/OpGroups.hpp"

namespace popart {

// One line per op group: a new group file adds its function here.
void registerAllOpGroups(OpLoweringRegistry& registry) {
    registerElementWiseOps(registry);
    registerActivationOps(registry);
    registerArithmeticOps(registry);
    registerComparisonOps(registry);
    registerMatMulOps(registry);
    registerReductionOps(registry);
    registerScanOps(registry);
    registerSoftmaxOps(registry);
    registerNormOps(registry);
    registerLossOps(registry);
    registerViewOps(registry);
}

} // namespace popart
