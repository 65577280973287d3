#pragma once
// PopART also declares SGD and ConstSGD in sgd.hpp.
#include <popart/optimizer.hpp>
