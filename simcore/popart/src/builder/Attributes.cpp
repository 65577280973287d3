#include <cstring>
#include <popart/attributes.hpp>

namespace popart {

OpAttributes& OpAttributes::set(const std::string& name, int64_t v) {
    OpAttribute a;
    a.kind = OpAttribute::Kind::Int;
    a.i = v;
    values_[name] = a;
    return *this;
}

OpAttributes& OpAttributes::set(const std::string& name, float v) {
    OpAttribute a;
    a.kind = OpAttribute::Kind::Float;
    a.f = v;
    values_[name] = a;
    return *this;
}

OpAttributes& OpAttributes::set(const std::string& name, const std::string& v) {
    OpAttribute a;
    a.kind = OpAttribute::Kind::String;
    a.s = v;
    values_[name] = a;
    return *this;
}

OpAttributes& OpAttributes::set(const std::string& name, const std::vector<int64_t>& v) {
    OpAttribute a;
    a.kind = OpAttribute::Kind::Ints;
    a.ints = v;
    values_[name] = a;
    return *this;
}

OpAttributes& OpAttributes::set(const std::string& name, const std::vector<float>& v) {
    OpAttribute a;
    a.kind = OpAttribute::Kind::Floats;
    a.floats = v;
    values_[name] = a;
    return *this;
}

OpAttributes& OpAttributes::set(const std::string& name, const std::vector<std::string>& v) {
    OpAttribute a;
    a.kind = OpAttribute::Kind::Strings;
    a.strings = v;
    values_[name] = a;
    return *this;
}

OpAttributes& OpAttributes::set(const std::string& name, const ConstVoidData& tensor) {
    OpAttribute a;
    a.kind = OpAttribute::Kind::Tensor;
    a.tensorInfo = tensor.info;
    const auto bytes = static_cast<std::size_t>(tensor.info.nbytes());
    a.tensorBytes.resize(bytes);
    if (bytes)
        std::memcpy(a.tensorBytes.data(), tensor.data, bytes);
    values_[name] = a;
    return *this;
}

} // namespace popart
