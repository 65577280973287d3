#include <algorithm>
#include <cctype>
#include <ostream>
#include <popart/error.hpp>
#include <popart/tensorinfo.hpp>
#include <sstream>

namespace popart {

namespace {

struct TypeName {
    DataType type;
    const char* name;
    const char* numpyName;
    int64_t size;
};

const TypeName kTypes[] = {
    {DataType::UINT8, "UINT8", "uint8", 1},
    {DataType::INT8, "INT8", "int8", 1},
    {DataType::UINT16, "UINT16", "uint16", 2},
    {DataType::INT16, "INT16", "int16", 2},
    {DataType::INT32, "INT32", "int32", 4},
    {DataType::INT64, "INT64", "int64", 8},
    {DataType::UINT32, "UINT32", "uint32", 4},
    {DataType::UINT64, "UINT64", "uint64", 8},
    {DataType::BOOL, "BOOL", "bool", 1},
    {DataType::FLOAT, "FLOAT", "float32", 4},
    {DataType::FLOAT16, "FLOAT16", "float16", 2},
    {DataType::BFLOAT16, "BFLOAT16", "bfloat16", 2},
    {DataType::DOUBLE, "DOUBLE", "float64", 8},
    {DataType::COMPLEX64, "COMPLEX64", "complex64", 8},
    {DataType::COMPLEX128, "COMPLEX128", "complex128", 16},
    {DataType::STRING, "STRING", "str", 0},
    {DataType::UNDEFINED, "UNDEFINED", "undefined", 0},
};

} // namespace

std::string getDataTypeString(DataType type) {
    for (const auto& t : kTypes)
        if (t.type == type)
            return t.name;
    return "UNDEFINED";
}

DataType dataTypeFromString(const std::string& name) {
    std::string upper = name;
    std::transform(upper.begin(), upper.end(), upper.begin(),
                   [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
    for (const auto& t : kTypes)
        if (upper == t.name || name == t.numpyName)
            return t.type;
    if (name == "float" || upper == "FLOAT32")
        return DataType::FLOAT;
    if (name == "half")
        return DataType::FLOAT16;
    if (name == "int")
        return DataType::INT32;
    throw error("unknown data type '" + name + "'");
}

int64_t dataTypeSize(DataType type) {
    for (const auto& t : kTypes)
        if (t.type == type)
            return t.size;
    return 0;
}

TensorInfo::TensorInfo(const std::string& type, const std::string& shape)
    : type_(dataTypeFromString(type)) {
    // "(2, 3)" or "[2 3]": the integers in order.
    std::string digits;
    for (char c : shape + " ") {
        if (std::isdigit(static_cast<unsigned char>(c))) {
            digits += c;
        } else if (!digits.empty()) {
            shape_.push_back(std::stoll(digits));
            digits.clear();
        }
    }
}

std::string TensorInfo::str() const {
    std::ostringstream out;
    out << *this;
    return out.str();
}

std::ostream& operator<<(std::ostream& os, const TensorInfo& info) {
    os << getDataTypeString(info.dataType()) << " [";
    for (std::size_t i = 0; i < info.shape().size(); ++i)
        os << (i ? " " : "") << info.shape()[i];
    return os << "]";
}

std::ostream& operator<<(std::ostream& os, DataType type) {
    return os << getDataTypeString(type);
}

} // namespace popart
