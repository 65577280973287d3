#pragma once
// The state behind a Builder: the ModelProto being built, name scopes, scoped attributes and
// the opset version used per domain.

#include <map>
#include <onnx/onnx_pb.h>
#include <popart/attributes.hpp>
#include <popart/debugcontext.hpp>
#include <popart/names.hpp>
#include <popart/tensorinfo.hpp>
#include <string>
#include <vector>

namespace popart {

struct BuilderImpl {
    BuilderImpl();

    onnx::ModelProto model;
    std::vector<std::string> nameScopes;
    std::map<std::string, int64_t> scopedAttributes;
    std::map<std::string, int> usedNames;

    /// `base` under the name scopes, made unique among tensor ids ("x", "x/1", ...).
    TensorId uniqueId(const std::string& base);
    /// Records that the model uses `domain` at `version`; popart::error on a second version.
    void useOpset(const std::string& domain, int version);
    std::vector<TensorId> addNode(const std::string& domain, int version, const std::string& opType,
                                  const std::vector<TensorId>& args, unsigned numOutputs,
                                  const OpAttributes& attributes, const DebugContext& debugContext);
    /// The node with output `id`; popart::error when no node produces it.
    onnx::NodeProto& producer(const TensorId& id);
    /// Every tensor's info (shape inference over the model so far).
    std::map<TensorId, TensorInfo> infos() const;
    bool knowsTensor(const TensorId& id) const;
};

/// Sets attribute `name` of `node` (replacing one of that name).
void setNodeAttribute(onnx::NodeProto& node, const std::string& name, const OpAttribute& value);

} // namespace popart
