#pragma once
// poplar::ProfileValue: the JSON-like value DebugInfo::setValue attaches to an operation.

#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <map>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

namespace poplar {

/// A value in a profile's debug information: a string, number, boolean, vector or map of values,
/// as in the SDK. PopLibs records each call's arguments and outputs as maps of these; users attach
/// their own with DebugInfo::setValue. Values are immutable once built; copies share storage.
class ProfileValue {
public:
    using String = std::string;
    using Vector = std::vector<ProfileValue>;
    using Map = std::map<std::string, ProfileValue>;
    enum class Type { STRING, VECTOR, MAP, DOUBLE, INT, UINT, BOOL };

    ProfileValue() : type_(Type::STRING) {}
    ProfileValue(const String& s) : type_(Type::STRING), string_(s) {}
    ProfileValue(const char* s) : type_(Type::STRING), string_(s ? s : "") {}
    ProfileValue(bool b) : type_(Type::BOOL), uint_(b ? 1 : 0) {}
    ProfileValue(double d) : type_(Type::DOUBLE), double_(d) {}
    ProfileValue(float d) : type_(Type::DOUBLE), double_(d) {}
    ProfileValue(const Vector& v) : type_(Type::VECTOR), vector_(std::make_shared<Vector>(v)) {}
    ProfileValue(const Map& m) : type_(Type::MAP), map_(std::make_shared<Map>(m)) {}
    /// Integers keep their signedness: signed types are INT, unsigned ones UINT.
    template <typename T, typename = typename std::enable_if<std::is_integral<T>::value &&
                                                             !std::is_same<T, bool>::value>::type>
    ProfileValue(T v) : type_(std::is_signed<T>::value ? Type::INT : Type::UINT) {
        if (std::is_signed<T>::value)
            int_ = static_cast<std::int64_t>(v);
        else
            uint_ = static_cast<std::uint64_t>(v);
    }

    Type type() const { return type_; }
    /// Each accessor throws poplar::poplar_error when the value is of another type.
    const String& asString() const;
    double asDouble() const;
    std::int64_t asInt() const;
    std::uint64_t asUint() const;
    bool asBool() const;
    const Vector& asVector() const;
    const Map& asMap() const;
    /// The number of elements of a vector or entries of a map (0 for other types).
    std::size_t size() const;
    /// A map's entry; throws when absent or when this is not a map.
    const ProfileValue& operator[](const std::string& key) const;
    /// A vector's element; throws when out of range or when this is not a vector.
    const ProfileValue& operator[](std::size_t index) const;

private:
    Type type_;
    String string_;
    double double_ = 0;
    std::int64_t int_ = 0;
    std::uint64_t uint_ = 0;
    std::shared_ptr<const Vector> vector_;
    std::shared_ptr<const Map> map_;
};

/// Writes `value` as JSON (maps as objects, vectors as arrays).
void serializeToJSON(std::ostream& out, const ProfileValue& value, bool prettyPrint = false);

} // namespace poplar
