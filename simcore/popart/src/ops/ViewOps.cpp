// registerViewOps: the view and data-movement group's three files (see ViewOps.hpp).
#include "ops/ViewOps.hpp"

#include "ops/OpGroups.hpp"

namespace popart {

void registerViewOps(OpLoweringRegistry& registry) {
    views::registerReshapeOps(registry);
    views::registerMovementOps(registry);
    views::registerValueOps(registry);
    views::registerConvOps(registry);
    views::registerResizeOps(registry);
}

} // namespace popart
