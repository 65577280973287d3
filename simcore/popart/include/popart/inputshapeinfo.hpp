#pragma once
// InputShapeInfo: the shapes of model inputs whose dimensions the ONNX file leaves open.

#include <map>
#include <popart/tensorinfo.hpp>

namespace popart {

/// Infos of inputs the model declares with symbolic or missing dimensions (a batch size given
/// at run time): the session compiles for these static shapes.
class InputShapeInfo {
public:
    void add(const TensorId& id, const TensorInfo& info) { infos_[id] = info; }
    bool has(const TensorId& id) const { return infos_.count(id) != 0; }
    const TensorInfo& get(const TensorId& id) const { return infos_.at(id); }
    const std::map<TensorId, TensorInfo>& getInfos() const { return infos_; }

private:
    std::map<TensorId, TensorInfo> infos_;
};

} // namespace popart
