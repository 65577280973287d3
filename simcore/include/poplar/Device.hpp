#pragma once
#include "poplar/Target.hpp"

namespace poplar {

/// A device graphs run on. Every device here is a simulated IPU model; attach() always succeeds.
class Device {
public:
    Device() = default;
    explicit Device(Target target, unsigned id = 0) : target_(std::move(target)), id_(id) {}

    const Target& getTarget() const { return target_; }
    unsigned getId() const { return id_; }
    bool attach() { return attached_ = true; }
    void detach() { attached_ = false; }
    bool isAttached() const { return attached_; }
    static Device createCPUDevice();

private:
    Target target_;
    unsigned id_ = 0;
    bool attached_ = true;
};

} // namespace poplar
