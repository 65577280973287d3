#include "poputil/DebugInfo.hpp"

namespace poputil {

template <> poplar::ProfileValue toProfileValue(const bool& v) {
    return v;
}
template <> poplar::ProfileValue toProfileValue(const int& v) {
    return v;
}
template <> poplar::ProfileValue toProfileValue(const unsigned& v) {
    return v;
}
template <> poplar::ProfileValue toProfileValue(const long& v) {
    return v;
}
template <> poplar::ProfileValue toProfileValue(const unsigned long& v) {
    return v;
}
template <> poplar::ProfileValue toProfileValue(const long long& v) {
    return v;
}
template <> poplar::ProfileValue toProfileValue(const unsigned long long& v) {
    return v;
}
template <> poplar::ProfileValue toProfileValue(const float& v) {
    return v;
}
template <> poplar::ProfileValue toProfileValue(const double& v) {
    return v;
}
template <> poplar::ProfileValue toProfileValue(const std::string& v) {
    return v;
}

template <> poplar::ProfileValue toProfileValue(const poplar::Tensor& t) {
    if (!t.valid())
        return poplar::ProfileValue("<poplar::Tensor> - uninitialized");
    // PopLibs' form: the shape as "[2, 3]" and the element type; the variable's name as well,
    // so that a call's inputs and outputs can be found in the memory and liveness views.
    std::string shape = "[";
    const auto dims = t.shape();
    for (std::size_t i = 0; i < dims.size(); ++i)
        shape += (i ? ", " : "") + std::to_string(dims[i]);
    shape += "]";
    poplar::ProfileValue::Map m;
    m.emplace("name", t.getName());
    m.emplace("shape", shape);
    m.emplace("type", t.elementType().toString());
    return m;
}

template <> poplar::ProfileValue toProfileValue(const poplar::Type& t) {
    return t.toString();
}

template <> poplar::ProfileValue toProfileValue(const poplar::OptionFlags& flags) {
    poplar::ProfileValue::Map m;
    for (const auto& [option, value] : flags)
        m.emplace(option, value);
    return m;
}

template <> poplar::ProfileValue toProfileValue(const poplar::ComputeSet& cs) {
    return cs.getId();
}

namespace {

poplar::DebugContext namedAfterApi(const poplar::DebugContext& debugContext,
                                   const std::string& api) {
    return poplar::DebugContext(debugContext, debugContext.getPathName().empty() ? api : "");
}

} // namespace

OpDebugInfo::OpDebugInfo(const poplar::DebugContext& debugContext, std::string api)
    : poplar::DebugInfo(namedAfterApi(debugContext, api), "PopLibs") {
    setValue("api", std::move(api));
}

void OpDebugInfo::add(const std::string& name, const std::vector<ArgType>& args) {
    if (args.empty())
        return;
    poplar::ProfileValue::Map m;
    for (const auto& a : args)
        m.emplace(a.n, a.pv);
    setValue(name, m);
}

PoplibsOpDebugInfo::PoplibsOpDebugInfo(const poplar::DebugContext& debugContext,
                                       const std::vector<ArgType>& args, const std::string& api)
    : OpDebugInfo(debugContext, api) {
    add("args", args);
}

void PoplibsOpDebugInfo::addOutputs(const std::vector<ArgType>& outputs) {
    add("outputs", outputs);
}

void PoplibsOpDebugInfo::addOutput(const poplar::Tensor& output) {
    setValue("output", toProfileValue(output));
}

} // namespace poputil
