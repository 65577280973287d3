#pragma once
// The registration functions of the op groups, one per file of this folder.

namespace popart {

class OpLoweringRegistry;

void registerElementWiseOps(OpLoweringRegistry& registry);
void registerActivationOps(OpLoweringRegistry& registry); // PRelu, Celu, ..., IsNaN, IsInf, Mod
void registerArithmeticOps(OpLoweringRegistry& registry);
void registerComparisonOps(OpLoweringRegistry& registry);
void registerMatMulOps(OpLoweringRegistry& registry);
void registerReductionOps(OpLoweringRegistry& registry);
void registerScanOps(OpLoweringRegistry& registry); // CumSum, TopK
void registerSoftmaxOps(OpLoweringRegistry& registry);
void registerNormOps(OpLoweringRegistry& registry);
void registerLossOps(OpLoweringRegistry& registry);
void registerViewOps(OpLoweringRegistry& registry); // ViewOps.hpp: views, data movement, values

/// Calls every register function above, once.
void registerAllOpGroups(OpLoweringRegistry& registry);

} // namespace popart
