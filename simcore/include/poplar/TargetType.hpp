#pragma once
namespace poplar {
/// Kind of device a target describes. The simulator's devices are IPU_MODEL; no IPU hardware is
/// ever found.
enum class TargetType { IPU, IPU_MODEL, CPU };
} // namespace poplar
