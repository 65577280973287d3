#pragma once
// Element types and tensor infos (type + shape), as PopART's tensorinfo.hpp defines them.

#include <cstdint>
#include <iosfwd>
#include <popart/names.hpp>
#include <string>

namespace popart {

/// ONNX element types, in PopART's spelling. The simulated device computes FLOAT, FLOAT16,
/// INT32, UINT32, BOOL and the 8/16-bit integers; INT64 and DOUBLE are accepted on the host
/// (inputs, constants) and narrowed where PopART narrows them.
enum class DataType {
    UINT8 = 0,
    INT8,
    UINT16,
    INT16,
    INT32,
    INT64,
    UINT32,
    UINT64,
    BOOL,
    FLOAT,
    FLOAT16,
    BFLOAT16,
    DOUBLE,
    COMPLEX64,
    COMPLEX128,
    STRING,
    UNDEFINED,
};

/// The name PopART gives a type ("FLOAT", "FLOAT16", "INT32", ...).
std::string getDataTypeString(DataType type);
/// The type named `name` (PopART's names; also "float32"/"float16"/"int32"... as numpy spells
/// them). Throws popart::error naming an unknown type.
DataType dataTypeFromString(const std::string& name);
/// Bytes per element (0 for STRING and UNDEFINED).
int64_t dataTypeSize(DataType type);

/// A tensor's element type and shape. Shapes are static: every dimension is known.
class TensorInfo {
public:
    TensorInfo() : type_(DataType::UNDEFINED) {}
    TensorInfo(DataType type, const Shape& shape) : type_(type), shape_(shape) {}
    TensorInfo(const std::string& type, const Shape& shape)
        : type_(dataTypeFromString(type)), shape_(shape) {}
    TensorInfo(const std::string& type, const std::string& shape);

    void set(DataType type) { type_ = type; }
    void set(DataType type, const Shape& shape) {
        type_ = type;
        shape_ = shape;
    }
    const Shape& shape() const { return shape_; }
    DataType dataType() const { return type_; }
    std::string data_type() const { return getDataTypeString(type_); }
    int rank() const { return static_cast<int>(shape_.size()); }
    int64_t dim(int i) const { return shape_.at(static_cast<std::size_t>(i)); }
    int64_t nelms() const {
        int64_t n = 1;
        for (std::size_t i = 0; i < shape_.size(); ++i)
            n *= shape_[i];
        return n;
    }
    int64_t nbytes() const { return nelms() * dataTypeSize(type_); }
    bool isSet() const { return type_ != DataType::UNDEFINED; }
    /// "FLOAT [2 3]"-style text for messages.
    std::string str() const;

    bool operator==(const TensorInfo& o) const { return type_ == o.type_ && shape_ == o.shape_; }
    bool operator!=(const TensorInfo& o) const { return !(*this == o); }

private:
    DataType type_;
    Shape shape_;
};

std::ostream& operator<<(std::ostream& os, const TensorInfo& info);
std::ostream& operator<<(std::ostream& os, DataType type);

} // namespace popart
