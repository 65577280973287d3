#pragma once
// Untyped views of host data with their tensor info: what Builder::addInitializedInputTensor
// reads and what IStepIO hands the session.

#include <popart/tensorinfo.hpp>

namespace popart {

/// Read-only host data described by `info` (not owned).
class ConstVoidData {
public:
    ConstVoidData() = default;
    ConstVoidData(const void* data_, const TensorInfo& info_) : data(data_), info(info_) {}
    const void* data = nullptr;
    TensorInfo info;
};

/// Writable host data described by `info` (not owned).
class MutableVoidData {
public:
    MutableVoidData() = default;
    MutableVoidData(void* data_, const TensorInfo& info_) : data(data_), info(info_) {}
    void* data = nullptr;
    TensorInfo info;
};

} // namespace popart
