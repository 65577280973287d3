#include "onnx/OnnxConvert.hpp"

#include <cstring>
#include <fstream>
#include <popart/error.hpp>
#include <sstream>

namespace popart {

namespace {

struct TypePair {
    DataType ours;
    int32_t onnx;
};

const TypePair kTypes[] = {
    {DataType::FLOAT, onnx::TensorProto::FLOAT},
    {DataType::UINT8, onnx::TensorProto::UINT8},
    {DataType::INT8, onnx::TensorProto::INT8},
    {DataType::UINT16, onnx::TensorProto::UINT16},
    {DataType::INT16, onnx::TensorProto::INT16},
    {DataType::INT32, onnx::TensorProto::INT32},
    {DataType::INT64, onnx::TensorProto::INT64},
    {DataType::STRING, onnx::TensorProto::STRING},
    {DataType::BOOL, onnx::TensorProto::BOOL},
    {DataType::FLOAT16, onnx::TensorProto::FLOAT16},
    {DataType::DOUBLE, onnx::TensorProto::DOUBLE},
    {DataType::UINT32, onnx::TensorProto::UINT32},
    {DataType::UINT64, onnx::TensorProto::UINT64},
    {DataType::COMPLEX64, onnx::TensorProto::COMPLEX64},
    {DataType::COMPLEX128, onnx::TensorProto::COMPLEX128},
    {DataType::BFLOAT16, onnx::TensorProto::BFLOAT16},
};

bool isFile(const std::string& s) {
    if (s.size() > 4096 || s.find('\0') != std::string::npos)
        return false;
    std::ifstream f(s, std::ios::binary);
    return f.good();
}

} // namespace

DataType fromOnnxType(int32_t onnxType) {
    for (const auto& t : kTypes)
        if (t.onnx == onnxType)
            return t.ours;
    return DataType::UNDEFINED;
}

int32_t toOnnxType(DataType type) {
    for (const auto& t : kTypes)
        if (t.ours == type)
            return t.onnx;
    return onnx::TensorProto::UNDEFINED;
}

HostTensor fromTensorProto(const onnx::TensorProto& t) {
    if (t.data_location() == onnx::TensorProto::EXTERNAL)
        throw error("tensor '" + t.name() + "': external data is not supported");
    HostTensor h;
    Shape shape(t.dims().begin(), t.dims().end());
    h.info = TensorInfo(fromOnnxType(t.data_type()), shape);
    const auto n = static_cast<std::size_t>(h.info.nelms());
    const DataType type = h.info.dataType();
    if (type == DataType::UNDEFINED || type == DataType::STRING || type == DataType::COMPLEX64 ||
        type == DataType::COMPLEX128 || type == DataType::BFLOAT16)
        throw error("tensor '" + t.name() + "': element type " + getDataTypeString(type) +
                    " is not supported");
    if (t.has_raw_data()) {
        if (t.raw_data().size() != n * static_cast<std::size_t>(dataTypeSize(type)))
            throw error("tensor '" + t.name() + "': raw data of " +
                        std::to_string(t.raw_data().size()) + " bytes does not match " +
                        h.info.str());
        h.values = hostValues(t.raw_data().data(), type, n);
        return h;
    }
    h.values.resize(n);
    auto fill = [&](const auto& field, const char* name) {
        if (static_cast<std::size_t>(field.size()) != n)
            throw error("tensor '" + t.name() + "': " + name + " holds " +
                        std::to_string(field.size()) + " values, " + h.info.str() + " needs " +
                        std::to_string(n));
        for (std::size_t i = 0; i < n; ++i)
            h.values[i] = static_cast<double>(field.Get(static_cast<int>(i)));
    };
    switch (type) {
    case DataType::FLOAT:
        fill(t.float_data(), "float_data");
        break;
    case DataType::DOUBLE:
        fill(t.double_data(), "double_data");
        break;
    case DataType::INT64:
        fill(t.int64_data(), "int64_data");
        break;
    case DataType::UINT32:
    case DataType::UINT64:
        fill(t.uint64_data(), "uint64_data");
        break;
    case DataType::FLOAT16: {
        // FLOAT16 values are stored as their bit patterns in int32_data.
        fill(t.int32_data(), "int32_data");
        for (auto& v : h.values) {
            const auto bits = static_cast<uint16_t>(v);
            v = hostValues(&bits, DataType::FLOAT16, 1)[0];
        }
        break;
    }
    default:
        fill(t.int32_data(), "int32_data");
        break;
    }
    return h;
}

void toTensorProto(const ConstVoidData& data, onnx::TensorProto& t) {
    t.set_data_type(toOnnxType(data.info.dataType()));
    t.clear_dims();
    for (auto d : data.info.shape())
        t.add_dims(d);
    t.set_raw_data(std::string(static_cast<const char*>(data.data),
                               static_cast<std::size_t>(data.info.nbytes())));
}

void toTensorProto(const HostTensor& host, onnx::TensorProto& t) {
    std::vector<char> bytes(static_cast<std::size_t>(host.info.nbytes()));
    writeHostValues(host.values, host.info.dataType(), bytes.data());
    toTensorProto(ConstVoidData(bytes.data(), host.info), t);
}

TensorInfo fromValueInfo(const onnx::ValueInfoProto& v, bool& complete) {
    complete = false;
    if (!v.type().has_tensor_type())
        return TensorInfo();
    const auto& tt = v.type().tensor_type();
    const DataType type = fromOnnxType(tt.elem_type());
    if (!tt.has_shape())
        return TensorInfo(type, Shape());
    Shape shape;
    complete = type != DataType::UNDEFINED;
    for (const auto& d : tt.shape().dim()) {
        if (d.has_dim_value() && d.dim_value() >= 0) {
            shape.push_back(d.dim_value());
        } else {
            shape.push_back(-1);
            complete = false;
        }
    }
    return TensorInfo(type, shape);
}

void setValueInfo(onnx::ValueInfoProto& v, const TensorId& id, const TensorInfo& info) {
    v.set_name(id);
    auto* tt = v.mutable_type()->mutable_tensor_type();
    tt->set_elem_type(toOnnxType(info.dataType()));
    auto* shape = tt->mutable_shape();
    shape->clear_dim();
    for (auto d : info.shape())
        shape->add_dim()->set_dim_value(d);
}

onnx::ModelProto loadModel(const std::string& modelProtoOrFilename) {
    onnx::ModelProto model;
    if (isFile(modelProtoOrFilename)) {
        std::ifstream f(modelProtoOrFilename, std::ios::binary);
        std::stringstream bytes;
        bytes << f.rdbuf();
        if (!model.ParseFromString(bytes.str()))
            throw error("'" + modelProtoOrFilename + "' is not an ONNX model (ModelProto)");
        return model;
    }
    if (modelProtoOrFilename.empty() || !model.ParseFromString(modelProtoOrFilename) ||
        !model.has_graph())
        throw error("the model is neither a readable file nor a serialized ONNX ModelProto" +
                    (modelProtoOrFilename.size() < 200 ? ": '" + modelProtoOrFilename + "'"
                                                       : std::string()));
    return model;
}

int opsetVersion(const onnx::ModelProto& model, const std::string& domain) {
    const bool onnxDomain = domain.empty() || domain == "ai.onnx";
    for (const auto& o : model.opset_import()) {
        const bool isOnnx = o.domain().empty() || o.domain() == "ai.onnx";
        if (onnxDomain ? isOnnx : o.domain() == domain)
            return static_cast<int>(o.version());
    }
    return 0;
}

} // namespace popart
