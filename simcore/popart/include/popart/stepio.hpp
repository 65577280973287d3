#pragma once
// StepIO (inputs and anchors of a run in IArrays) and WeightsIO (host buffers of weights).

#include <map>
#include <popart/iarray.hpp>
#include <popart/istepio.hpp>
#include <popart/voiddata.hpp>

namespace popart {

/// IStepIO over caller-owned arrays: each input array holds the data of every batch of the
/// step (batchesPerStep x the tensor's shape, or the tensor's shape alone when one batch per
/// step); each anchor array has room for what its AnchorReturnType returns. Successive in()/
/// out() calls for one tensor return successive slices, wrapping at the end of the array.
class StepIO : public IStepIO {
public:
    StepIO(const std::map<TensorId, IArray*>& inputs, const std::map<TensorId, IArray*>& outputs);
    StepIO(std::map<TensorId, IArray&> inputs, std::map<TensorId, IArray&> outputs);

    ConstVoidData in(TensorId id, int64_t numElements, bool prefetch) override;
    void inComplete(TensorId id, int64_t numElements) override;
    MutableVoidData out(TensorId id, int64_t numElements) override;
    void outComplete(TensorId id) override;

private:
    struct Cursor {
        IArray* array = nullptr;
        int64_t offset = 0; // elements already handed out
    };
    static Cursor& find(std::map<TensorId, Cursor>& m, const TensorId& id, const char* what);
    std::map<TensorId, Cursor> inputs_;
    std::map<TensorId, Cursor> outputs_;
};

/// Where Session::readWeights/writeWeights find each weight's host buffer.
class IWeightsIO {
public:
    virtual ~IWeightsIO() = default;
    virtual bool contains(TensorId id) const = 0;
    virtual MutableVoidData weight(TensorId id) const = 0;
};

/// IWeightsIO over a map of caller-owned buffers.
class WeightsIO : public IWeightsIO {
public:
    void insert(TensorId id, MutableVoidData data);
    bool contains(TensorId id) const override;
    MutableVoidData weight(TensorId id) const override;

private:
    std::map<TensorId, MutableVoidData> weights_;
};

} // namespace popart
