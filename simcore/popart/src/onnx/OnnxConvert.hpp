#pragma once
// Conversions between ONNX's protobuf types and this library's: element types, tensor values,
// and loading a model from a file name or serialized bytes.

#include "ir/HostTensor.hpp"

#include <onnx/onnx_pb.h>
#include <popart/tensorinfo.hpp>
#include <popart/voiddata.hpp>
#include <string>

namespace popart {

DataType fromOnnxType(int32_t onnxType);
int32_t toOnnxType(DataType type);

/// A TensorProto's values (raw_data or the typed fields); external data is refused.
HostTensor fromTensorProto(const onnx::TensorProto& t);
/// Sets `t`'s type, dims and raw_data from host data described by `data.info`.
void toTensorProto(const ConstVoidData& data, onnx::TensorProto& t);
void toTensorProto(const HostTensor& host, onnx::TensorProto& t);

/// The info a ValueInfoProto declares; dimensions that are symbolic or missing are -1, and
/// `complete` says whether every dimension is known.
TensorInfo fromValueInfo(const onnx::ValueInfoProto& v, bool& complete);
void setValueInfo(onnx::ValueInfoProto& v, const TensorId& id, const TensorInfo& info);

/// A model from a file name, or else from the serialized ModelProto the string holds.
/// popart::error when it is neither.
onnx::ModelProto loadModel(const std::string& modelProtoOrFilename);

/// The opset version the model imports for `domain` ("" and "ai.onnx" are the same), 0 when
/// it does not import the domain.
int opsetVersion(const onnx::ModelProto& model, const std::string& domain);

} // namespace popart
