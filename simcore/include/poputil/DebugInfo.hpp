#pragma once
// poputil::PoplibsOpDebugInfo and toProfileValue: how a PopLibs call records its API name,
// arguments and outputs in the operation's debug information.

#include <cstddef>
#include <poplar/DebugInfo.hpp>
#include <poplar/GraphElements.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/ProfileValue.hpp>
#include <poplar/Tensor.hpp>
#include <poplar/Type.hpp>
#include <string>
#include <utility>
#include <vector>

namespace poputil {

/// Converts an argument to the value recorded for it; specialised for the types PopLibs calls
/// take (numbers, strings, tensors as {"name", "shape", "type"}, types, option flags).
template <typename T> poplar::ProfileValue toProfileValue(const T& t);

template <> poplar::ProfileValue toProfileValue(const bool& v);
template <> poplar::ProfileValue toProfileValue(const int& v);
template <> poplar::ProfileValue toProfileValue(const unsigned& v);
template <> poplar::ProfileValue toProfileValue(const long& v);
template <> poplar::ProfileValue toProfileValue(const unsigned long& v);
template <> poplar::ProfileValue toProfileValue(const long long& v);
template <> poplar::ProfileValue toProfileValue(const unsigned long long& v);
template <> poplar::ProfileValue toProfileValue(const float& v);
template <> poplar::ProfileValue toProfileValue(const double& v);
template <> poplar::ProfileValue toProfileValue(const std::string& v);
template <> poplar::ProfileValue toProfileValue(const poplar::Tensor& t);
template <> poplar::ProfileValue toProfileValue(const poplar::Type& t);
template <> poplar::ProfileValue toProfileValue(const poplar::OptionFlags& t);
template <> poplar::ProfileValue toProfileValue(const poplar::ComputeSet& t);

/// A pointer is recorded as what it points to, or "<nullptr>".
template <typename T> poplar::ProfileValue toProfileValue(const T* t) {
    return t == nullptr ? poplar::ProfileValue("<nullptr>") : toProfileValue(*t);
}

/// A vector is recorded as a map from each index ("0", "1", ...) to its element, as in PopLibs.
template <typename T> poplar::ProfileValue toProfileValue(const std::vector<T>& vec) {
    poplar::ProfileValue::Map m;
    for (std::size_t i = 0; i < vec.size(); ++i)
        m.insert(std::make_pair(std::to_string(i), toProfileValue(vec[i])));
    return m;
}

/// One named argument or output of a call; DI_ARGS(a, b) builds {{"a", a}, {"b", b}}.
class ArgType {
public:
    std::string n;
    poplar::ProfileValue pv;

    ArgType(const std::string& name, const poplar::ProfileValue& value) : n(name), pv(value) {}
    ArgType(const std::pair<std::string, const poplar::ProfileValue>& p)
        : n(p.first), pv(p.second) {}
};

/// The debug information of one library call: an operation in layer "PopLibs" whose "api"
/// value names the function. When the caller's debug context has no name, the operation is
/// named after the function.
class OpDebugInfo : public poplar::DebugInfo {
public:
    OpDebugInfo(const poplar::DebugContext& debugContext, std::string api);
    OpDebugInfo& operator=(const OpDebugInfo&) = delete;
    OpDebugInfo(const OpDebugInfo&) = delete;
    virtual ~OpDebugInfo() = default;

    /// Records `args` as one map value `name` (nothing when `args` is empty).
    void add(const std::string& name, const std::vector<ArgType>& args);
};

/// A PopLibs call's debug information: "api", its arguments as the map "args", and its outputs
/// ("outputs", or "output" for a single tensor) once the call has made them.
class PoplibsOpDebugInfo : public OpDebugInfo {
public:
    PoplibsOpDebugInfo(const poplar::DebugContext& debugContext,
                       const std::vector<ArgType>& args = {}, const std::string& api = "");
    PoplibsOpDebugInfo& operator=(const PoplibsOpDebugInfo&) = delete;
    PoplibsOpDebugInfo(const PoplibsOpDebugInfo&) = delete;
    virtual ~PoplibsOpDebugInfo() = default;

    void addOutputs(const std::vector<ArgType>& outputs);
    /// The single output of a call, recorded as "output".
    void addOutput(const poplar::Tensor& output);
};

} // namespace poputil

// DI_ARGS(a, b, c) expands to {{"a", toProfileValue(a)}, {"b", ...}, ...}: a std::vector<ArgType>
// initializer naming each argument after the variable passed (up to 16).
#define TILESCOPE_DI_ARG(x) poputil::ArgType(#x, poputil::toProfileValue(x))
#define TILESCOPE_DI_PICK(_1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11, _12, _13, _14, _15, _16,   \
                          N, ...)                                                                  \
    N
#define TILESCOPE_DI_1(a) TILESCOPE_DI_ARG(a)
#define TILESCOPE_DI_2(a, ...) TILESCOPE_DI_ARG(a), TILESCOPE_DI_1(__VA_ARGS__)
#define TILESCOPE_DI_3(a, ...) TILESCOPE_DI_ARG(a), TILESCOPE_DI_2(__VA_ARGS__)
#define TILESCOPE_DI_4(a, ...) TILESCOPE_DI_ARG(a), TILESCOPE_DI_3(__VA_ARGS__)
#define TILESCOPE_DI_5(a, ...) TILESCOPE_DI_ARG(a), TILESCOPE_DI_4(__VA_ARGS__)
#define TILESCOPE_DI_6(a, ...) TILESCOPE_DI_ARG(a), TILESCOPE_DI_5(__VA_ARGS__)
#define TILESCOPE_DI_7(a, ...) TILESCOPE_DI_ARG(a), TILESCOPE_DI_6(__VA_ARGS__)
#define TILESCOPE_DI_8(a, ...) TILESCOPE_DI_ARG(a), TILESCOPE_DI_7(__VA_ARGS__)
#define TILESCOPE_DI_9(a, ...) TILESCOPE_DI_ARG(a), TILESCOPE_DI_8(__VA_ARGS__)
#define TILESCOPE_DI_10(a, ...) TILESCOPE_DI_ARG(a), TILESCOPE_DI_9(__VA_ARGS__)
#define TILESCOPE_DI_11(a, ...) TILESCOPE_DI_ARG(a), TILESCOPE_DI_10(__VA_ARGS__)
#define TILESCOPE_DI_12(a, ...) TILESCOPE_DI_ARG(a), TILESCOPE_DI_11(__VA_ARGS__)
#define TILESCOPE_DI_13(a, ...) TILESCOPE_DI_ARG(a), TILESCOPE_DI_12(__VA_ARGS__)
#define TILESCOPE_DI_14(a, ...) TILESCOPE_DI_ARG(a), TILESCOPE_DI_13(__VA_ARGS__)
#define TILESCOPE_DI_15(a, ...) TILESCOPE_DI_ARG(a), TILESCOPE_DI_14(__VA_ARGS__)
#define TILESCOPE_DI_16(a, ...) TILESCOPE_DI_ARG(a), TILESCOPE_DI_15(__VA_ARGS__)
#define TILESCOPE_DI_CAT(a, b) a##b
#define TILESCOPE_DI_SELECT(n) TILESCOPE_DI_CAT(TILESCOPE_DI_, n)
#define DI_ARGS(...)                                                                               \
    std::vector<poputil::ArgType> {                                                                \
        TILESCOPE_DI_SELECT(TILESCOPE_DI_PICK(__VA_ARGS__, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, \
                                              5, 4, 3, 2, 1, 0))                                   \
        (__VA_ARGS__)                                                                              \
    }
