#include <popart/error.hpp>
#include <popart/stepio.hpp>

namespace popart {

StepIO::StepIO(const std::map<TensorId, IArray*>& inputs,
               const std::map<TensorId, IArray*>& outputs) {
    for (const auto& i : inputs)
        inputs_[i.first].array = i.second;
    for (const auto& o : outputs)
        outputs_[o.first].array = o.second;
}

StepIO::StepIO(std::map<TensorId, IArray&> inputs, std::map<TensorId, IArray&> outputs) {
    for (auto& i : inputs)
        inputs_[i.first].array = &i.second;
    for (auto& o : outputs)
        outputs_[o.first].array = &o.second;
}

StepIO::Cursor& StepIO::find(std::map<TensorId, Cursor>& m, const TensorId& id, const char* what) {
    auto it = m.find(id);
    if (it == m.end())
        throw error(std::string("StepIO: no ") + what + " array for tensor '" + id + "'");
    return it->second;
}

namespace {

// The slice of `numElements` at the cursor, wrapping at the array's end.
template <typename Data>
Data slice(IArray& a, int64_t& offset, int64_t numElements, const TensorId& id) {
    const auto total = static_cast<int64_t>(a.nelms());
    if (numElements <= 0 || total % numElements != 0)
        throw error("StepIO: the array of '" + id + "' has " + std::to_string(total) +
                    " elements, not a multiple of the " + std::to_string(numElements) +
                    " one copy needs");
    if (offset >= total)
        offset = 0;
    char* base = static_cast<char*>(a.data()) + offset * dataTypeSize(a.dataType());
    Shape shape(1, numElements);
    return Data(base, TensorInfo(a.dataType(), shape));
}

} // namespace

ConstVoidData StepIO::in(TensorId id, int64_t numElements, bool) {
    Cursor& c = find(inputs_, id, "input");
    return slice<ConstVoidData>(*c.array, c.offset, numElements, id);
}

void StepIO::inComplete(TensorId id, int64_t numElements) {
    find(inputs_, id, "input").offset += numElements;
}

MutableVoidData StepIO::out(TensorId id, int64_t numElements) {
    Cursor& c = find(outputs_, id, "anchor");
    MutableVoidData d = slice<MutableVoidData>(*c.array, c.offset, numElements, id);
    c.offset += numElements;
    return d;
}

void StepIO::outComplete(TensorId) {}

void WeightsIO::insert(TensorId id, MutableVoidData data) {
    weights_[id] = data;
}

bool WeightsIO::contains(TensorId id) const {
    return weights_.count(id) != 0;
}

MutableVoidData WeightsIO::weight(TensorId id) const {
    auto it = weights_.find(id);
    if (it == weights_.end())
        throw error("WeightsIO: no buffer for weight '" + id + "'");
    return it->second;
}

} // namespace popart
