#pragma once
// PopART also declares Adam in adam.hpp.
#include <popart/optimizer.hpp>
