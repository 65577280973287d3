#pragma once
// OpAttributes: the attributes of a node added with Builder::customOp (ONNX attribute kinds).

#include <map>
#include <popart/names.hpp>
#include <popart/voiddata.hpp>
#include <string>
#include <vector>

namespace popart {

/// One ONNX node attribute value: an int, a float, a string, a list of one of those, or a
/// tensor (copied).
struct OpAttribute {
    enum class Kind { Int, Float, String, Ints, Floats, Strings, Tensor };
    Kind kind = Kind::Int;
    int64_t i = 0;
    float f = 0.0f;
    std::string s;
    std::vector<int64_t> ints;
    std::vector<float> floats;
    std::vector<std::string> strings;
    TensorInfo tensorInfo;
    std::vector<char> tensorBytes;
};

/// Attributes by name, in the order ONNX serialises them (by name).
class OpAttributes {
public:
    OpAttributes& set(const std::string& name, int64_t v);
    OpAttributes& set(const std::string& name, int v) { return set(name, static_cast<int64_t>(v)); }
    OpAttributes& set(const std::string& name, float v);
    OpAttributes& set(const std::string& name, const std::string& v);
    OpAttributes& set(const std::string& name, const char* v) { return set(name, std::string(v)); }
    OpAttributes& set(const std::string& name, const std::vector<int64_t>& v);
    OpAttributes& set(const std::string& name, const std::vector<float>& v);
    OpAttributes& set(const std::string& name, const std::vector<std::string>& v);
    OpAttributes& set(const std::string& name, const ConstVoidData& tensor);
    bool has(const std::string& name) const { return values_.count(name) != 0; }
    const std::map<std::string, OpAttribute>& values() const { return values_; }

private:
    std::map<std::string, OpAttribute> values_;
};

} // namespace popart
