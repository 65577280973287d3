#include "poplar/ProfileValue.hpp"

#include "poplar/exceptions.hpp"

#include <cmath>
#include <cstdio>
#include <ostream>

namespace poplar {
namespace {

const char* typeName(ProfileValue::Type t) {
    switch (t) {
    case ProfileValue::Type::STRING:
        return "STRING";
    case ProfileValue::Type::VECTOR:
        return "VECTOR";
    case ProfileValue::Type::MAP:
        return "MAP";
    case ProfileValue::Type::DOUBLE:
        return "DOUBLE";
    case ProfileValue::Type::INT:
        return "INT";
    case ProfileValue::Type::UINT:
        return "UINT";
    case ProfileValue::Type::BOOL:
        return "BOOL";
    }
    return "?";
}

void require(const ProfileValue& v, ProfileValue::Type t, const char* accessor) {
    if (v.type() != t)
        throw poplar_error(std::string("ProfileValue::") + accessor + ": the value is a " +
                           typeName(v.type()) + ", not a " + typeName(t));
}

void writeString(std::ostream& out, const std::string& s) {
    out << '"';
    for (unsigned char c : s) {
        switch (c) {
        case '"':
            out << "\\\"";
            break;
        case '\\':
            out << "\\\\";
            break;
        case '\n':
            out << "\\n";
            break;
        case '\r':
            out << "\\r";
            break;
        case '\t':
            out << "\\t";
            break;
        default:
            if (c < 0x20) {
                char buf[8];
                std::snprintf(buf, sizeof buf, "\\u%04x", c);
                out << buf;
            } else {
                out << c;
            }
        }
    }
    out << '"';
}

void write(std::ostream& out, const ProfileValue& v, bool pretty, int depth) {
    const auto newline = [&](int d) {
        if (pretty)
            out << '\n' << std::string(static_cast<std::size_t>(d) * 2, ' ');
    };
    switch (v.type()) {
    case ProfileValue::Type::STRING:
        writeString(out, v.asString());
        break;
    case ProfileValue::Type::BOOL:
        out << (v.asBool() ? "true" : "false");
        break;
    case ProfileValue::Type::INT:
        out << v.asInt();
        break;
    case ProfileValue::Type::UINT:
        out << v.asUint();
        break;
    case ProfileValue::Type::DOUBLE: {
        const double d = v.asDouble();
        if (!std::isfinite(d)) { // JSON has no NaN or infinity: write them as strings
            writeString(out, std::isnan(d) ? "nan" : (d > 0 ? "inf" : "-inf"));
        } else {
            char buf[32];
            std::snprintf(buf, sizeof buf, "%.17g", d);
            out << buf;
        }
        break;
    }
    case ProfileValue::Type::VECTOR: {
        out << '[';
        bool first = true;
        for (const auto& e : v.asVector()) {
            out << (first ? "" : ",");
            first = false;
            newline(depth + 1);
            write(out, e, pretty, depth + 1);
        }
        if (!first)
            newline(depth);
        out << ']';
        break;
    }
    case ProfileValue::Type::MAP: {
        out << '{';
        bool first = true;
        for (const auto& [key, e] : v.asMap()) {
            out << (first ? "" : ",");
            first = false;
            newline(depth + 1);
            writeString(out, key);
            out << (pretty ? ": " : ":");
            write(out, e, pretty, depth + 1);
        }
        if (!first)
            newline(depth);
        out << '}';
        break;
    }
    }
}

} // namespace

const ProfileValue::String& ProfileValue::asString() const {
    require(*this, Type::STRING, "asString");
    return string_;
}
double ProfileValue::asDouble() const {
    // Integers widen to double, as a JSON reader would see them.
    if (type_ == Type::INT)
        return static_cast<double>(int_);
    if (type_ == Type::UINT)
        return static_cast<double>(uint_);
    require(*this, Type::DOUBLE, "asDouble");
    return double_;
}
std::int64_t ProfileValue::asInt() const {
    if (type_ == Type::UINT && uint_ <= static_cast<std::uint64_t>(INT64_MAX))
        return static_cast<std::int64_t>(uint_);
    require(*this, Type::INT, "asInt");
    return int_;
}
std::uint64_t ProfileValue::asUint() const {
    if (type_ == Type::INT && int_ >= 0)
        return static_cast<std::uint64_t>(int_);
    require(*this, Type::UINT, "asUint");
    return uint_;
}
bool ProfileValue::asBool() const {
    require(*this, Type::BOOL, "asBool");
    return uint_ != 0;
}
const ProfileValue::Vector& ProfileValue::asVector() const {
    require(*this, Type::VECTOR, "asVector");
    return *vector_;
}
const ProfileValue::Map& ProfileValue::asMap() const {
    require(*this, Type::MAP, "asMap");
    return *map_;
}
std::size_t ProfileValue::size() const {
    if (type_ == Type::VECTOR)
        return vector_->size();
    if (type_ == Type::MAP)
        return map_->size();
    return 0;
}
const ProfileValue& ProfileValue::operator[](const std::string& key) const {
    const auto& m = asMap();
    auto it = m.find(key);
    if (it == m.end())
        throw poplar_error("ProfileValue: the map has no key \"" + key + "\"");
    return it->second;
}
const ProfileValue& ProfileValue::operator[](std::size_t index) const {
    const auto& v = asVector();
    if (index >= v.size())
        throw poplar_error("ProfileValue: index " + std::to_string(index) +
                           " is out of range for a vector of " + std::to_string(v.size()));
    return v[index];
}

void serializeToJSON(std::ostream& out, const ProfileValue& value, bool prettyPrint) {
    write(out, value, prettyPrint, 0);
}

} // namespace poplar
