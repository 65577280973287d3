#pragma once
// IStepIO: how a session reads the inputs and writes the anchors of one run().

#include <popart/names.hpp>
#include <popart/voiddata.hpp>

namespace popart {

/// The host side of one Session::run: for every batch of the step, the session asks in() for
/// each input (numElements per batch) and calls inComplete() when the data has been copied;
/// for every anchor copy it asks out() for the place to write and calls outComplete() after.
/// Implementations hand out successive slices of their buffers.
class IStepIO {
public:
    virtual ~IStepIO() = default;
    virtual ConstVoidData in(TensorId id, int64_t numElements, bool prefetch) = 0;
    virtual void inComplete(TensorId id, int64_t numElements) = 0;
    virtual MutableVoidData out(TensorId id, int64_t numElements) = 0;
    virtual void outComplete(TensorId) {}

    void enableRuntimeAsserts(bool b) { runtimeAssertsOn_ = b; }
    bool runtimeAssertsEnabled() const { return runtimeAssertsOn_; }

private:
    bool runtimeAssertsOn_ = true;
};

} // namespace popart
