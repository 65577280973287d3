#pragma once
namespace poplar {
/// Kind of device a target describes: IPU for the simulated IPU hardware of DeviceManager
/// (TILESCOPE_SIMULATED_IPUS), IPU_MODEL for IPUModel devices, CPU for Device::createCPUDevice.
enum class TargetType { IPU, IPU_MODEL, CPU };
} // namespace poplar
