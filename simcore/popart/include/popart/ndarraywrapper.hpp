#pragma once
// NDArrayWrapper: an IArray over a caller-owned buffer of T.

#include <cstdint>
#include <popart/error.hpp>
#include <popart/iarray.hpp>
#include <type_traits>

namespace popart {

namespace detail {
template <typename T> struct DataTypeOf;
template <> struct DataTypeOf<float> {
    static DataType value() { return DataType::FLOAT; }
};
template <> struct DataTypeOf<double> {
    static DataType value() { return DataType::DOUBLE; }
};
template <> struct DataTypeOf<int8_t> {
    static DataType value() { return DataType::INT8; }
};
template <> struct DataTypeOf<uint8_t> {
    static DataType value() { return DataType::UINT8; }
};
template <> struct DataTypeOf<int16_t> {
    static DataType value() { return DataType::INT16; }
};
template <> struct DataTypeOf<uint16_t> {
    static DataType value() { return DataType::UINT16; }
};
template <> struct DataTypeOf<int32_t> {
    static DataType value() { return DataType::INT32; }
};
template <> struct DataTypeOf<uint32_t> {
    static DataType value() { return DataType::UINT32; }
};
template <> struct DataTypeOf<int64_t> {
    static DataType value() { return DataType::INT64; }
};
template <> struct DataTypeOf<uint64_t> {
    static DataType value() { return DataType::UINT64; }
};
template <> struct DataTypeOf<bool> {
    static DataType value() { return DataType::BOOL; }
};
} // namespace detail

/// Wraps `data` (not owned) as an array of the given shape. The element type follows T;
/// pass a TensorInfo to give another type of the same size (FLOAT16 over uint16_t).
template <typename T> class NDArrayWrapper : public IArray {
public:
    NDArrayWrapper(T* data, const TensorInfo& info) : data_(data), info_(info) {
        if (dataTypeSize(info.dataType()) != static_cast<int64_t>(sizeof(T)))
            throw error("NDArrayWrapper: element size of " + info.data_type() +
                        " differs from the buffer's");
    }
    NDArrayWrapper(T* data, const Shape& shape)
        : data_(data), info_(detail::DataTypeOf<typename std::remove_cv<T>::type>::value(), shape) {
    }

    void* data() override { return const_cast<void*>(static_cast<const void*>(data_)); }
    DataType dataType() const override { return info_.dataType(); }
    std::size_t rank() const override { return static_cast<std::size_t>(info_.rank()); }
    int64_t dim(std::size_t index) const override { return info_.dim(static_cast<int>(index)); }
    std::size_t nelms() const override { return static_cast<std::size_t>(info_.nelms()); }
    const Shape shape() const override { return info_.shape(); }

private:
    T* data_;
    TensorInfo info_;
};

} // namespace popart
