#include "OnnxNodeTest.hpp"

#include "PopartHarness.hpp"

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <onnx/onnx_pb.h>
#include <popart/error.hpp>
#include <poplar/Half.hpp>
#include <set>
#include <sstream>

namespace popart_test {

namespace {

using namespace popart;

// An IArray over owned bytes of any element type.
class ByteArray : public IArray {
public:
    ByteArray(DataType type, Shape shape)
        : info_(type, shape), bytes_(std::size_t(info_.nbytes())) {}
    void* data() override { return bytes_.data(); }
    DataType dataType() const override { return info_.dataType(); }
    std::size_t rank() const override { return std::size_t(info_.rank()); }
    int64_t dim(std::size_t i) const override { return info_.dim(int(i)); }
    std::size_t nelms() const override { return std::size_t(info_.nelms()); }
    const Shape shape() const override { return info_.shape(); }
    std::vector<char>& bytes() { return bytes_; }

private:
    TensorInfo info_;
    std::vector<char> bytes_;
};

DataType typeOf(int32_t onnxType) {
    switch (onnxType) {
    case onnx::TensorProto::FLOAT:
        return DataType::FLOAT;
    case onnx::TensorProto::UINT8:
        return DataType::UINT8;
    case onnx::TensorProto::INT8:
        return DataType::INT8;
    case onnx::TensorProto::UINT16:
        return DataType::UINT16;
    case onnx::TensorProto::INT16:
        return DataType::INT16;
    case onnx::TensorProto::INT32:
        return DataType::INT32;
    case onnx::TensorProto::INT64:
        return DataType::INT64;
    case onnx::TensorProto::BOOL:
        return DataType::BOOL;
    case onnx::TensorProto::FLOAT16:
        return DataType::FLOAT16;
    case onnx::TensorProto::DOUBLE:
        return DataType::DOUBLE;
    case onnx::TensorProto::UINT32:
        return DataType::UINT32;
    case onnx::TensorProto::UINT64:
        return DataType::UINT64;
    default:
        throw error("test data of ONNX type " + std::to_string(onnxType) + " is not supported");
    }
}

onnx::TensorProto readTensor(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    std::stringstream s;
    s << f.rdbuf();
    onnx::TensorProto t;
    if (!t.ParseFromString(s.str()))
        throw error("cannot parse " + path);
    return t;
}

// The values of a TensorProto as doubles.
std::vector<double> valuesOf(const onnx::TensorProto& t, std::size_t n) {
    std::vector<double> v(n);
    const DataType type = typeOf(t.data_type());
    if (t.has_raw_data()) {
        ByteArray a(type, Shape{int64_t(n)});
        std::memcpy(a.data(), t.raw_data().data(), std::min(a.bytes().size(), t.raw_data().size()));
        auto read = [&](auto* p) {
            for (std::size_t i = 0; i < n; ++i)
                v[i] = double(p[i]);
        };
        switch (type) {
        case DataType::FLOAT:
            read(static_cast<float*>(a.data()));
            break;
        case DataType::DOUBLE:
            read(static_cast<double*>(a.data()));
            break;
        case DataType::INT64:
            read(static_cast<int64_t*>(a.data()));
            break;
        case DataType::INT32:
            read(static_cast<int32_t*>(a.data()));
            break;
        case DataType::UINT32:
            read(static_cast<uint32_t*>(a.data()));
            break;
        case DataType::UINT64:
            read(static_cast<uint64_t*>(a.data()));
            break;
        case DataType::INT16:
            read(static_cast<int16_t*>(a.data()));
            break;
        case DataType::UINT16:
            read(static_cast<uint16_t*>(a.data()));
            break;
        case DataType::INT8:
            read(static_cast<int8_t*>(a.data()));
            break;
        case DataType::UINT8:
        case DataType::BOOL:
            read(static_cast<uint8_t*>(a.data()));
            break;
        case DataType::FLOAT16: {
            const uint16_t* p = static_cast<const uint16_t*>(a.data());
            for (std::size_t i = 0; i < n; ++i)
                v[i] = float(poplar::half::fromBits(p[i]));
            break;
        }
        default:
            throw error("raw test data of this type is not supported");
        }
        return v;
    }
    for (std::size_t i = 0; i < n; ++i) {
        switch (type) {
        case DataType::FLOAT:
            v[i] = t.float_data(int(i));
            break;
        case DataType::DOUBLE:
            v[i] = t.double_data(int(i));
            break;
        case DataType::INT64:
            v[i] = double(t.int64_data(int(i)));
            break;
        case DataType::UINT32:
        case DataType::UINT64:
            v[i] = double(t.uint64_data(int(i)));
            break;
        default:
            v[i] = t.int32_data(int(i));
            break;
        }
    }
    return v;
}

template <typename T> void fill(std::vector<char>& bytes, const std::vector<double>& v) {
    T* p = reinterpret_cast<T*>(bytes.data());
    for (std::size_t i = 0; i < v.size(); ++i)
        p[i] = static_cast<T>(v[i]);
}

void writeValues(ByteArray& a, const std::vector<double>& v) {
    switch (a.dataType()) {
    case DataType::FLOAT:
        fill<float>(a.bytes(), v);
        break;
    case DataType::DOUBLE:
        fill<double>(a.bytes(), v);
        break;
    case DataType::INT64:
        fill<int64_t>(a.bytes(), v);
        break;
    case DataType::INT32:
        fill<int32_t>(a.bytes(), v);
        break;
    case DataType::UINT32:
        fill<uint32_t>(a.bytes(), v);
        break;
    case DataType::UINT64:
        fill<uint64_t>(a.bytes(), v);
        break;
    case DataType::INT16:
        fill<int16_t>(a.bytes(), v);
        break;
    case DataType::UINT16:
        fill<uint16_t>(a.bytes(), v);
        break;
    case DataType::INT8:
        fill<int8_t>(a.bytes(), v);
        break;
    case DataType::UINT8:
    case DataType::BOOL:
        fill<uint8_t>(a.bytes(), v);
        break;
    case DataType::FLOAT16: {
        uint16_t* p = reinterpret_cast<uint16_t*>(a.bytes().data());
        for (std::size_t i = 0; i < v.size(); ++i)
            p[i] = poplar::half(float(v[i])).bits();
        break;
    }
    default:
        throw error("test data of this type is not supported");
    }
}

} // namespace

std::string runOnnxNodeTest(const std::string& testDir) {
    namespace fs = std::filesystem;
    try {
        std::ifstream f(testDir + "/model.onnx", std::ios::binary);
        std::stringstream s;
        s << f.rdbuf();
        onnx::ModelProto model;
        if (!model.ParseFromString(s.str()))
            return "cannot parse model.onnx";
        const std::string data = testDir + "/test_data_set_0";
        std::vector<TensorId> inputIds, outputIds;
        std::set<std::string> inits;
        for (const auto& i : model.graph().initializer())
            inits.insert(i.name());
        for (const auto& i : model.graph().input()) {
            if (i.has_type() && !i.type().has_tensor_type())
                return "input '" + i.name() + "' is not a tensor (sequence/optional data)";
            if (!inits.count(i.name()))
                inputIds.push_back(i.name());
        }
        for (const auto& o : model.graph().output())
            if (o.has_type() && !o.type().has_tensor_type())
                return "output '" + o.name() + "' is not a tensor (sequence/optional data)";
        for (const auto& o : model.graph().output())
            outputIds.push_back(o.name());
        InputShapeInfo shapes;
        std::vector<std::unique_ptr<ByteArray>> arrays;
        std::map<TensorId, IArray*> in, out;
        for (std::size_t i = 0; i < inputIds.size(); ++i) {
            onnx::TensorProto t = readTensor(data + "/input_" + std::to_string(i) + ".pb");
            Shape shape(t.dims().begin(), t.dims().end());
            TensorInfo info(typeOf(t.data_type()), shape);
            shapes.add(inputIds[i], info);
            arrays.emplace_back(new ByteArray(info.dataType(), shape));
            writeValues(*arrays.back(), valuesOf(t, std::size_t(info.nelms())));
            in[inputIds[i]] = arrays.back().get();
        }
        DataFlow flow(1, outputIds, AnchorReturnType("ALL"));
        auto session = InferenceSession::createFromOnnxModel(s.str(), flow, smallDevice(4), shapes);
        std::vector<onnx::TensorProto> expected;
        for (std::size_t i = 0; i < outputIds.size(); ++i) {
            expected.push_back(readTensor(data + "/output_" + std::to_string(i) + ".pb"));
            const TensorInfo info = session->getInfo(outputIds[i]);
            arrays.emplace_back(new ByteArray(typeOf(expected.back().data_type()), info.shape()));
            out[outputIds[i]] = arrays.back().get();
        }
        session->prepareDevice();
        session->weightsFromHost();
        StepIO io(in, out);
        session->run(io);
        for (std::size_t i = 0; i < outputIds.size(); ++i) {
            const auto& e = expected[i];
            const std::size_t n = out[outputIds[i]]->nelms();
            Shape eshape(e.dims().begin(), e.dims().end());
            if (eshape != out[outputIds[i]]->shape())
                return "output " + outputIds[i] + ": shape differs from the expected one";
            const auto want = valuesOf(e, n);
            ByteArray got(out[outputIds[i]]->dataType(), Shape{int64_t(n)});
            std::memcpy(got.data(), out[outputIds[i]]->data(), got.bytes().size());
            onnx::TensorProto gotProto;
            gotProto.set_data_type(e.data_type());
            gotProto.set_raw_data(std::string(got.bytes().data(), got.bytes().size()));
            const auto have = valuesOf(gotProto, n);
            const bool floating = e.data_type() == onnx::TensorProto::FLOAT ||
                                  e.data_type() == onnx::TensorProto::DOUBLE ||
                                  e.data_type() == onnx::TensorProto::FLOAT16;
            for (std::size_t k = 0; k < n; ++k) {
                const bool bothNan = std::isnan(want[k]) && std::isnan(have[k]);
                const double tol = floating ? 1e-7 + 1e-3 * std::fabs(want[k]) : 0.0;
                if (!bothNan && !(std::fabs(want[k] - have[k]) <= tol)) {
                    std::ostringstream msg;
                    msg << "output " << outputIds[i] << "[" << k << "]: " << have[k]
                        << " != " << want[k];
                    return msg.str();
                }
            }
        }
        return "";
    } catch (const std::exception& e) {
        return e.what();
    }
}

} // namespace popart_test
