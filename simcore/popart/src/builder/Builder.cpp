#include "builder/BuilderImpl.hpp"
#include "onnx/OnnxConvert.hpp"

#include <fstream>
#include <google/protobuf/text_format.h>
#include <popart/builder.hpp>
#include <popart/error.hpp>

namespace popart {

namespace {

// PopART's attribute names for its node annotations.
const char* const kIpuNumber = "__ipu_number";
const char* const kPipelineStage = "__pipeline_stage";
const char* const kRecompute = "__recompute_output_in_backward_pass";
const char* const kAvailableMemory = "__available_memory_proportion";

const onnx::AttributeProto* findAttribute(const onnx::NodeProto& node, const std::string& name) {
    for (const auto& a : node.attribute())
        if (a.name() == name)
            return &a;
    return nullptr;
}

OpAttribute intAttribute(int64_t v) {
    OpAttribute a;
    a.kind = OpAttribute::Kind::Int;
    a.i = v;
    return a;
}

} // namespace

Builder::Builder() : impl_(new BuilderImpl()) {}
Builder::~Builder() = default;

std::unique_ptr<Builder> Builder::create() {
    return std::unique_ptr<Builder>(new Builder());
}

std::unique_ptr<Builder> Builder::createFromOnnxModel(const std::string& modelProtoOrFilename) {
    std::unique_ptr<Builder> b(new Builder());
    b->impl_->model = loadModel(modelProtoOrFilename);
    return b;
}

TensorId Builder::addInputTensor(const TensorInfo& tensorInfo, const DebugContext& debugContext) {
    if (!tensorInfo.isSet())
        throw error("Builder::addInputTensor: the tensor info has no data type");
    const TensorId id =
        impl_->uniqueId(debugContext.empty() ? "input" : debugContext.getPathName());
    setValueInfo(*impl_->model.mutable_graph()->add_input(), id, tensorInfo);
    return id;
}

TensorId Builder::addInputTensor(const std::string& dataType, const Shape& shape,
                                 const DebugContext& debugContext) {
    return addInputTensor(TensorInfo(dataType, shape), debugContext);
}

TensorId Builder::addInitializedInputTensor(const ConstVoidData& initData,
                                            const DebugContext& debugContext) {
    if (!initData.data && initData.info.nelms() != 0)
        throw error("Builder::addInitializedInputTensor: no data");
    const TensorId id =
        impl_->uniqueId(debugContext.empty() ? "init_input" : debugContext.getPathName());
    auto* g = impl_->model.mutable_graph();
    onnx::TensorProto* t = g->add_initializer();
    toTensorProto(initData, *t);
    t->set_name(id);
    setValueInfo(*g->add_input(), id, initData.info);
    return id;
}

void Builder::addOutputTensor(const TensorId& id) {
    if (!impl_->knowsTensor(id))
        throw error("Builder::addOutputTensor: '" + id + "' is not a tensor of the model");
    auto* o = impl_->model.mutable_graph()->add_output();
    const auto infos = impl_->infos();
    auto it = infos.find(id);
    if (it != infos.end() && it->second.isSet())
        setValueInfo(*o, id, it->second);
    else
        o->set_name(id);
}

AiOnnxOpset Builder::aiOnnxOpset(int version) {
    if (version < 6 || version > 17)
        throw error("Builder::aiOnnxOpset: opset " + std::to_string(version) +
                    " is not supported (6 to 17 are)");
    return AiOnnxOpset(impl_.get(), version);
}

std::vector<TensorId> Builder::customOp(const std::string& domain, const std::string& opType,
                                        int opsetVersion, const std::vector<TensorId>& inputs,
                                        unsigned numOutputs, const OpAttributes& attributes,
                                        const DebugContext& debugContext) {
    return impl_->addNode(domain == "ai.onnx" ? "" : domain, opsetVersion, opType, inputs,
                          numOutputs, attributes, debugContext);
}

void Builder::virtualGraph(const TensorId& nodeOutputName, int64_t value) {
    setNodeAttribute(impl_->producer(nodeOutputName), kIpuNumber, intAttribute(value));
}

void Builder::virtualGraph(const std::set<TensorId>& nodeOutputNames, int64_t value) {
    for (const auto& id : nodeOutputNames)
        virtualGraph(id, value);
}

int64_t Builder::getVirtualGraph(const TensorId& nodeOutputName) {
    return getInt64NodeAttribute(kIpuNumber, {nodeOutputName});
}

void Builder::pipelineStage(const TensorId& nodeOutputName, int64_t value) {
    setNodeAttribute(impl_->producer(nodeOutputName), kPipelineStage, intAttribute(value));
}

void Builder::pipelineStage(const std::set<TensorId>& nodeOutputNames, int64_t value) {
    for (const auto& id : nodeOutputNames)
        pipelineStage(id, value);
}

int64_t Builder::getPipelineStage(const TensorId& nodeOutputName) {
    return getInt64NodeAttribute(kPipelineStage, {nodeOutputName});
}

void Builder::recomputeOutputInBackwardPass(const TensorId& nodeOutputName, RecomputeType value) {
    setNodeAttribute(impl_->producer(nodeOutputName), kRecompute,
                     intAttribute(static_cast<int64_t>(value)));
}

void Builder::recomputeOutputInBackwardPass(const std::set<TensorId>& nodeOutputNames,
                                            RecomputeType value) {
    for (const auto& id : nodeOutputNames)
        recomputeOutputInBackwardPass(id, value);
}

bool Builder::getRecomputeOutputInBackwardPass(const TensorId& nodeOutputName) {
    const auto* a = findAttribute(impl_->producer(nodeOutputName), kRecompute);
    return a && a->i() == static_cast<int64_t>(RecomputeType::Recompute);
}

void Builder::setAvailableMemoryProportion(const TensorId& nodeOutputName, float proportion) {
    if (proportion <= 0.0f || proportion > 1.0f)
        throw error("Builder::setAvailableMemoryProportion: " + std::to_string(proportion) +
                    " is not in (0, 1]");
    OpAttribute a;
    a.kind = OpAttribute::Kind::Float;
    a.f = proportion;
    setNodeAttribute(impl_->producer(nodeOutputName), kAvailableMemory, a);
}

void Builder::setAttribute(const std::string& attribute, int64_t value) {
    impl_->scopedAttributes[attribute] = value;
}

void Builder::clearAttribute(const std::string& attribute) {
    impl_->scopedAttributes.erase(attribute);
}

bool Builder::hasAttribute(const std::string& attribute) const {
    return impl_->scopedAttributes.count(attribute) != 0;
}

int64_t Builder::getInt64Attribute(const std::string& attribute) const {
    auto it = impl_->scopedAttributes.find(attribute);
    if (it == impl_->scopedAttributes.end())
        throw error("Builder: attribute '" + attribute + "' is not set");
    return it->second;
}

void Builder::addNodeAttribute(const std::string& name, int64_t value,
                               const std::set<TensorId>& nodeOutputNames) {
    for (const auto& id : nodeOutputNames)
        setNodeAttribute(impl_->producer(id), name, intAttribute(value));
}

void Builder::addNodeAttribute(const std::string& name, const std::vector<int64_t>& value,
                               const std::set<TensorId>& nodeOutputNames) {
    OpAttribute a;
    a.kind = OpAttribute::Kind::Ints;
    a.ints = value;
    for (const auto& id : nodeOutputNames)
        setNodeAttribute(impl_->producer(id), name, a);
}

void Builder::addNodeAttribute(const std::string& name, float value,
                               const std::set<TensorId>& nodeOutputNames) {
    OpAttribute a;
    a.kind = OpAttribute::Kind::Float;
    a.f = value;
    for (const auto& id : nodeOutputNames)
        setNodeAttribute(impl_->producer(id), name, a);
}

void Builder::addNodeAttribute(const std::string& name, const std::string& value,
                               const std::set<TensorId>& nodeOutputNames) {
    OpAttribute a;
    a.kind = OpAttribute::Kind::String;
    a.s = value;
    for (const auto& id : nodeOutputNames)
        setNodeAttribute(impl_->producer(id), name, a);
}

bool Builder::nodeHasAttribute(const std::string& name, const std::set<TensorId>& nodeOutputNames) {
    for (const auto& id : nodeOutputNames)
        if (!findAttribute(impl_->producer(id), name))
            return false;
    return !nodeOutputNames.empty();
}

int64_t Builder::getInt64NodeAttribute(const std::string& name,
                                       const std::set<TensorId>& nodeOutputNames) {
    for (const auto& id : nodeOutputNames) {
        const auto* a = findAttribute(impl_->producer(id), name);
        if (!a)
            throw error("Builder: the node producing '" + id + "' has no attribute '" + name + "'");
        return a->i();
    }
    throw error("Builder: no node output given for attribute '" + name + "'");
}

void Builder::pushNameScope(const std::string& name) {
    impl_->nameScopes.push_back(name);
}

void Builder::popNameScope() {
    if (impl_->nameScopes.empty())
        throw error("Builder::popNameScope: no name scope to pop");
    impl_->nameScopes.pop_back();
}

std::string Builder::getNameScope(const std::string& name) const {
    std::string s;
    for (const auto& n : impl_->nameScopes)
        s += n + "/";
    return s + name;
}

void Builder::setGraphName(const std::string& name) {
    impl_->model.mutable_graph()->set_name(name);
}

std::string Builder::getModelProto(bool humanReadable) const {
    std::string out;
    if (humanReadable)
        google::protobuf::TextFormat::PrintToString(impl_->model, &out);
    else
        impl_->model.SerializeToString(&out);
    return out;
}

void Builder::saveModelProto(const std::string& fileName) {
    std::ofstream f(fileName, std::ios::binary);
    if (!f || !impl_->model.SerializeToOstream(&f))
        throw error("Builder::saveModelProto: cannot write '" + fileName + "'");
}

std::vector<TensorId> Builder::getInputTensorIds() const {
    std::vector<TensorId> ids;
    for (const auto& i : impl_->model.graph().input())
        ids.push_back(i.name());
    return ids;
}

std::vector<TensorId> Builder::getOutputTensorIds() const {
    std::vector<TensorId> ids;
    for (const auto& o : impl_->model.graph().output())
        ids.push_back(o.name());
    return ids;
}

std::vector<TensorId> Builder::getValueTensorIds() const {
    std::vector<TensorId> ids;
    for (const auto& n : impl_->model.graph().node())
        for (const auto& o : n.output())
            ids.push_back(o);
    return ids;
}

std::vector<TensorId> Builder::getTrainableTensorIds() const {
    std::vector<TensorId> ids;
    for (const auto& t : impl_->model.graph().initializer()) {
        const DataType type = fromOnnxType(t.data_type());
        if (type == DataType::FLOAT || type == DataType::FLOAT16)
            ids.push_back(t.name());
    }
    return ids;
}

bool Builder::isInitializer(const TensorId& id) const {
    for (const auto& t : impl_->model.graph().initializer())
        if (t.name() == id)
            return true;
    return false;
}

Shape Builder::getTensorShape(const TensorId& id) {
    const auto infos = impl_->infos();
    auto it = infos.find(id);
    if (it == infos.end() || !it->second.isSet())
        throw error("Builder::getTensorShape: the shape of '" + id + "' is not known");
    return it->second.shape();
}

DataType Builder::getTensorDataType(const TensorId& id) {
    const auto infos = impl_->infos();
    auto it = infos.find(id);
    if (it == infos.end() || !it->second.isSet())
        throw error("Builder::getTensorDataType: the type of '" + id + "' is not known");
    return it->second.dataType();
}

std::string Builder::getTensorDtypeString(const TensorId& id) {
    std::string s = getDataTypeString(getTensorDataType(id));
    for (auto& c : s)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s == "float" ? "float32" : s;
}

} // namespace popart
