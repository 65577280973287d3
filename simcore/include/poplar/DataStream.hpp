#pragma once
// DataStream lives with the other graph handles.
#include "poplar/GraphElements.hpp"
