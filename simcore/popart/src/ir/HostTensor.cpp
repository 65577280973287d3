#include "ir/HostTensor.hpp"

#include <cstring>
#include <popart/error.hpp>
#include <poplar/HalfFloat.hpp>

namespace popart {

namespace {

template <typename T> void readAs(const void* data, std::size_t n, std::vector<double>& out) {
    const T* p = static_cast<const T*>(data);
    for (std::size_t i = 0; i < n; ++i)
        out[i] = static_cast<double>(p[i]);
}

template <typename T> void writeAs(const std::vector<double>& v, void* data) {
    T* p = static_cast<T*>(data);
    for (std::size_t i = 0; i < v.size(); ++i)
        p[i] = static_cast<T>(v[i]);
}

} // namespace

std::vector<double> hostValues(const void* data, DataType type, std::size_t n) {
    std::vector<double> out(n);
    switch (type) {
    case DataType::UINT8:
        readAs<uint8_t>(data, n, out);
        break;
    case DataType::INT8:
        readAs<int8_t>(data, n, out);
        break;
    case DataType::UINT16:
        readAs<uint16_t>(data, n, out);
        break;
    case DataType::INT16:
        readAs<int16_t>(data, n, out);
        break;
    case DataType::INT32:
        readAs<int32_t>(data, n, out);
        break;
    case DataType::INT64:
        readAs<int64_t>(data, n, out);
        break;
    case DataType::UINT32:
        readAs<uint32_t>(data, n, out);
        break;
    case DataType::UINT64:
        readAs<uint64_t>(data, n, out);
        break;
    case DataType::BOOL:
        readAs<uint8_t>(data, n, out);
        break;
    case DataType::FLOAT:
        readAs<float>(data, n, out);
        break;
    case DataType::DOUBLE:
        readAs<double>(data, n, out);
        break;
    case DataType::FLOAT16: {
        const uint16_t* p = static_cast<const uint16_t*>(data);
        for (std::size_t i = 0; i < n; ++i)
            out[i] = static_cast<float>(poplar::half::fromBits(p[i]));
        break;
    }
    default:
        throw error("host data of type " + getDataTypeString(type) + " is not supported");
    }
    return out;
}

void writeHostValues(const std::vector<double>& values, DataType type, void* data) {
    switch (type) {
    case DataType::UINT8:
        writeAs<uint8_t>(values, data);
        break;
    case DataType::INT8:
        writeAs<int8_t>(values, data);
        break;
    case DataType::UINT16:
        writeAs<uint16_t>(values, data);
        break;
    case DataType::INT16:
        writeAs<int16_t>(values, data);
        break;
    case DataType::INT32:
        writeAs<int32_t>(values, data);
        break;
    case DataType::INT64:
        writeAs<int64_t>(values, data);
        break;
    case DataType::UINT32:
        writeAs<uint32_t>(values, data);
        break;
    case DataType::UINT64:
        writeAs<uint64_t>(values, data);
        break;
    case DataType::BOOL: {
        uint8_t* p = static_cast<uint8_t*>(data);
        for (std::size_t i = 0; i < values.size(); ++i)
            p[i] = values[i] != 0.0;
        break;
    }
    case DataType::FLOAT:
        writeAs<float>(values, data);
        break;
    case DataType::DOUBLE:
        writeAs<double>(values, data);
        break;
    case DataType::FLOAT16: {
        uint16_t* p = static_cast<uint16_t*>(data);
        for (std::size_t i = 0; i < values.size(); ++i)
            p[i] = poplar::half(static_cast<float>(values[i])).bits();
        break;
    }
    default:
        throw error("host data of type " + getDataTypeString(type) + " is not supported");
    }
}

} // namespace popart
