// popart's Builder in Python: `_BuilderCore` (wrapped by popart.Builder in builder.py) and the op
// sets it hands out. Argument names follow PopART's generated Python op sets: `args`, the ONNX
// attribute names, then `debugContext`.
#include "PopartBindings.hpp"

#include <popart/builder.hpp>
#include <popart/error.hpp>

namespace py = pybind11;

namespace tilescope::python::popart_face {

namespace {

using popart::AiOnnxOpset;
using popart::TensorId;
using Args = std::vector<TensorId>;
using Ints = std::vector<int64_t>;

popart::OptionalInt optionalInt(const py::object& value) {
    if (value.is_none())
        return popart::OptionalInt();
    return popart::OptionalInt(value.cast<int64_t>());
}

/// Runs `fn` with a numpy view of `value` (any array-like), kept alive for the call: the
/// builder copies the data.
template <typename Fn> auto withArray(const py::object& value, Fn fn) {
    py::array array = contiguous(py::array::ensure(value));
    if (!array)
        throw popart::error("expected a numpy array (or a value numpy converts to one)");
    return fn(constVoidData(array));
}

void bindOnnxOps(py::module_& m) {
    py::class_<AiOnnxOpset> ops(m, "AiOnnxOpset");
    ops.def("getOpsetVersion", &AiOnnxOpset::getOpsetVersion);
    // Ops with only inputs (element-wise, variadic, views whose parameters are inputs).
#define TILESCOPE_POPART_ARGS_OP(name)                                                             \
    ops.def(#name, &AiOnnxOpset::name, py::arg("args"), py::arg("debugContext") = std::string());
    TILESCOPE_POPART_ARGS_OP(abs)
    TILESCOPE_POPART_ARGS_OP(ceil)
    TILESCOPE_POPART_ARGS_OP(cos)
    TILESCOPE_POPART_ARGS_OP(erf)
    TILESCOPE_POPART_ARGS_OP(exp)
    TILESCOPE_POPART_ARGS_OP(floor)
    TILESCOPE_POPART_ARGS_OP(identity)
    TILESCOPE_POPART_ARGS_OP(log)
    TILESCOPE_POPART_ARGS_OP(logical_not)
    TILESCOPE_POPART_ARGS_OP(neg)
    TILESCOPE_POPART_ARGS_OP(reciprocal)
    TILESCOPE_POPART_ARGS_OP(relu)
    TILESCOPE_POPART_ARGS_OP(round)
    TILESCOPE_POPART_ARGS_OP(sigmoid)
    TILESCOPE_POPART_ARGS_OP(sign)
    TILESCOPE_POPART_ARGS_OP(sin)
    TILESCOPE_POPART_ARGS_OP(softplus)
    TILESCOPE_POPART_ARGS_OP(softsign)
    TILESCOPE_POPART_ARGS_OP(sqrt)
    TILESCOPE_POPART_ARGS_OP(tanh)
    TILESCOPE_POPART_ARGS_OP(shape)
    TILESCOPE_POPART_ARGS_OP(globalaveragepool)
    TILESCOPE_POPART_ARGS_OP(globalmaxpool)
    TILESCOPE_POPART_ARGS_OP(add)
    TILESCOPE_POPART_ARGS_OP(sub)
    TILESCOPE_POPART_ARGS_OP(mul)
    TILESCOPE_POPART_ARGS_OP(div)
    TILESCOPE_POPART_ARGS_OP(pow)
    TILESCOPE_POPART_ARGS_OP(max)
    TILESCOPE_POPART_ARGS_OP(min)
    TILESCOPE_POPART_ARGS_OP(sum)
    TILESCOPE_POPART_ARGS_OP(mean)
    TILESCOPE_POPART_ARGS_OP(equal)
    TILESCOPE_POPART_ARGS_OP(less)
    TILESCOPE_POPART_ARGS_OP(greater)
    TILESCOPE_POPART_ARGS_OP(lessorequal)
    TILESCOPE_POPART_ARGS_OP(greaterorequal)
    TILESCOPE_POPART_ARGS_OP(logical_and)
    TILESCOPE_POPART_ARGS_OP(logical_or)
    TILESCOPE_POPART_ARGS_OP(logical_xor)
    TILESCOPE_POPART_ARGS_OP(matmul)
    TILESCOPE_POPART_ARGS_OP(where)
    TILESCOPE_POPART_ARGS_OP(expand)
    TILESCOPE_POPART_ARGS_OP(reshape)
    TILESCOPE_POPART_ARGS_OP(tile)
#undef TILESCOPE_POPART_ARGS_OP

    ops.def("gemm", &AiOnnxOpset::gemm, py::arg("args"), py::arg("alpha") = 1.0f,
            py::arg("beta") = 1.0f, py::arg("transA") = 0, py::arg("transB") = 0,
            py::arg("debugContext") = std::string());
    ops.def("leakyrelu", &AiOnnxOpset::leakyrelu, py::arg("args"), py::arg("alpha") = 0.01f,
            py::arg("debugContext") = std::string());
    ops.def("elu", &AiOnnxOpset::elu, py::arg("args"), py::arg("alpha") = 1.0f,
            py::arg("debugContext") = std::string());
    ops.def("selu", &AiOnnxOpset::selu, py::arg("args"),
            py::arg("alpha") = 1.67326319217681884765625f,
            py::arg("gamma") = 1.05070102214813232421875f, py::arg("debugContext") = std::string());
    ops.def("hardsigmoid", &AiOnnxOpset::hardsigmoid, py::arg("args"), py::arg("alpha") = 0.2f,
            py::arg("beta") = 0.5f, py::arg("debugContext") = std::string());
    ops.def("clip", &AiOnnxOpset::clip, py::arg("args"), py::arg("max") = 3.402823466e+38f,
            py::arg("min") = -3.402823466e+38f, py::arg("debugContext") = std::string());
    ops.def("softmax", &AiOnnxOpset::softmax, py::arg("args"),
            py::arg("axis") = popart::OnnxDefaultAxis, py::arg("debugContext") = std::string());
    ops.def("logsoftmax", &AiOnnxOpset::logsoftmax, py::arg("args"),
            py::arg("axis") = popart::OnnxDefaultAxis, py::arg("debugContext") = std::string());
#define TILESCOPE_POPART_REDUCE_OP(name)                                                           \
    ops.def(#name, &AiOnnxOpset::name, py::arg("args"), py::arg("axes") = Ints(),                  \
            py::arg("keepdims") = 1, py::arg("debugContext") = std::string());
    TILESCOPE_POPART_REDUCE_OP(reducesum)
    TILESCOPE_POPART_REDUCE_OP(reducemean)
    TILESCOPE_POPART_REDUCE_OP(reducemax)
    TILESCOPE_POPART_REDUCE_OP(reducemin)
    TILESCOPE_POPART_REDUCE_OP(reduceprod)
    TILESCOPE_POPART_REDUCE_OP(reducel1)
    TILESCOPE_POPART_REDUCE_OP(reducel2)
    TILESCOPE_POPART_REDUCE_OP(reducelogsum)
    TILESCOPE_POPART_REDUCE_OP(reducelogsumexp)
    TILESCOPE_POPART_REDUCE_OP(reducesumsquare)
#undef TILESCOPE_POPART_REDUCE_OP
    ops.def("argmax", &AiOnnxOpset::argmax, py::arg("args"), py::arg("axis") = 0,
            py::arg("keepdims") = 1, py::arg("debugContext") = std::string());
    ops.def("argmin", &AiOnnxOpset::argmin, py::arg("args"), py::arg("axis") = 0,
            py::arg("keepdims") = 1, py::arg("debugContext") = std::string());
    ops.def("batchnormalization", &AiOnnxOpset::batchnormalization, py::arg("args"),
            py::arg("num_outputs") = 1, py::arg("epsilon") = 1e-05f, py::arg("momentum") = 0.9f,
            py::arg("debugContext") = std::string());
    ops.def("layernormalization", &AiOnnxOpset::layernormalization, py::arg("args"),
            py::arg("axis") = -1, py::arg("epsilon") = 1e-05f,
            py::arg("debugContext") = std::string());
    ops.def("dropout", &AiOnnxOpset::dropout, py::arg("args"), py::arg("num_outputs") = 1,
            py::arg("ratio") = 0.5f, py::arg("debugContext") = std::string());
    ops.def(
        "softmaxcrossentropyloss",
        [](AiOnnxOpset& o, const Args& args, unsigned numOutputs, const std::string& reduction,
           const py::object& ignoreIndex, const std::string& debugContext) {
            return o.softmaxcrossentropyloss(args, numOutputs, reduction, optionalInt(ignoreIndex),
                                             debugContext);
        },
        py::arg("args"), py::arg("num_outputs") = 1, py::arg("reduction") = "mean",
        py::arg("ignore_index") = py::none(), py::arg("debugContext") = std::string());
    ops.def(
        "negativeloglikelihoodloss",
        [](AiOnnxOpset& o, const Args& args, const std::string& reduction,
           const py::object& ignoreIndex, const std::string& debugContext) {
            return o.negativeloglikelihoodloss(args, reduction, optionalInt(ignoreIndex),
                                               debugContext);
        },
        py::arg("args"), py::arg("reduction") = "mean", py::arg("ignore_index") = py::none(),
        py::arg("debugContext") = std::string());
    ops.def("conv", &AiOnnxOpset::conv, py::arg("args"), py::arg("dilations") = Ints(),
            py::arg("group") = 1, py::arg("kernel_shape") = Ints(), py::arg("pads") = Ints(),
            py::arg("strides") = Ints(), py::arg("debugContext") = std::string());
    ops.def("maxpool", &AiOnnxOpset::maxpool, py::arg("args"), py::arg("num_outputs") = 1,
            py::arg("kernel_shape"), py::arg("ceil_mode") = 0, py::arg("dilations") = Ints(),
            py::arg("pads") = Ints(), py::arg("storage_order") = 0, py::arg("strides") = Ints(),
            py::arg("debugContext") = std::string());
    ops.def("averagepool", &AiOnnxOpset::averagepool, py::arg("args"), py::arg("kernel_shape"),
            py::arg("ceil_mode") = 0, py::arg("count_include_pad") = 0, py::arg("pads") = Ints(),
            py::arg("strides") = Ints(), py::arg("debugContext") = std::string());
    ops.def("flatten", &AiOnnxOpset::flatten, py::arg("args"), py::arg("axis") = 1,
            py::arg("debugContext") = std::string());
    ops.def("transpose", &AiOnnxOpset::transpose, py::arg("args"), py::arg("perm") = Ints(),
            py::arg("debugContext") = std::string());
    ops.def("squeeze", &AiOnnxOpset::squeeze, py::arg("args"), py::arg("axes") = Ints(),
            py::arg("debugContext") = std::string());
    ops.def("unsqueeze", &AiOnnxOpset::unsqueeze, py::arg("args"), py::arg("axes"),
            py::arg("debugContext") = std::string());
    ops.def("concat", &AiOnnxOpset::concat, py::arg("args"), py::arg("axis"),
            py::arg("debugContext") = std::string());
    ops.def("slice",
            py::overload_cast<const Args&, const Ints&, const Ints&, const Ints&,
                              const popart::DebugContext&>(&AiOnnxOpset::slice),
            py::arg("args"), py::arg("ends"), py::arg("starts"), py::arg("axes") = Ints(),
            py::arg("debugContext") = std::string());
    ops.def("slice",
            py::overload_cast<const Args&, const popart::DebugContext&>(&AiOnnxOpset::slice),
            py::arg("args"), py::arg("debugContext") = std::string());
    ops.def("split", &AiOnnxOpset::split, py::arg("args"), py::arg("num_outputs"),
            py::arg("axis") = 0, py::arg("split") = Ints(),
            py::arg("debugContext") = std::string());
    ops.def("gather", &AiOnnxOpset::gather, py::arg("args"), py::arg("axis") = 0,
            py::arg("debugContext") = std::string());
    ops.def("cast", &AiOnnxOpset::cast, py::arg("args"), py::arg("to"),
            py::arg("debugContext") = std::string());
    ops.def(
        "constant",
        [](AiOnnxOpset& o, const py::object& value, const std::string& debugContext) {
            return withArray(
                value, [&](const popart::ConstVoidData& d) { return o.constant(d, debugContext); });
        },
        py::arg("value"), py::arg("debugContext") = std::string());
    ops.def(
        "constantofshape",
        [](AiOnnxOpset& o, const Args& args, const py::object& value,
           const std::string& debugContext) {
            if (value.is_none())
                return o.constantofshape(args, debugContext);
            return withArray(value, [&](const popart::ConstVoidData& d) {
                return o.constantofshape(args, d, debugContext);
            });
        },
        py::arg("args"), py::arg("value") = py::none(), py::arg("debugContext") = std::string());
    ops.def("pad", &AiOnnxOpset::pad, py::arg("args"), py::arg("pads") = Ints(),
            py::arg("mode") = "constant", py::arg("value") = 0.0f,
            py::arg("debugContext") = std::string());
}

void bindGraphcoreOps(py::module_& m) {
    using popart::AiGraphcoreOpset1;
    py::class_<AiGraphcoreOpset1>(m, "AiGraphcoreOpset1")
        .def(
            "nllloss",
            [](AiGraphcoreOpset1& o, const Args& args, popart::ReductionType reduction,
               const py::object& ignoreIndex, bool inputIsLogProbability,
               const std::string& debugContext) {
                return o.nllloss(args, reduction, optionalInt(ignoreIndex), inputIsLogProbability,
                                 debugContext);
            },
            py::arg("args"), py::arg("reduction") = popart::ReductionType::Mean,
            py::arg("ignoreIndex") = py::none(), py::arg("inputIsLogProbability") = false,
            py::arg("debugContext") = std::string())
        .def("l1loss", &AiGraphcoreOpset1::l1loss, py::arg("args"), py::arg("lambda"),
             py::arg("reduction") = popart::ReductionType::Mean,
             py::arg("debugContext") = std::string())
        .def("identityloss", &AiGraphcoreOpset1::identityloss, py::arg("args"),
             py::arg("reduction") = popart::ReductionType::Mean,
             py::arg("debugContext") = std::string())
        .def("gelu", &AiGraphcoreOpset1::gelu, py::arg("args"),
             py::arg("debugContext") = std::string())
        .def("scale", &AiGraphcoreOpset1::scale, py::arg("args"), py::arg("scale"),
             py::arg("debugContext") = std::string())
        .def("detach", &AiGraphcoreOpset1::detach, py::arg("args"),
             py::arg("debugContext") = std::string())
        .def("printtensor", &AiGraphcoreOpset1::printtensor, py::arg("args"),
             py::arg("print_gradient") = 1, py::arg("debugContext") = std::string(),
             py::arg("title") = std::string())
        .def("nop", &AiGraphcoreOpset1::nop, py::arg("args"),
             py::arg("debugContext") = std::string());
}

/// A Python attribute value as an ONNX attribute of a custom op.
void setAttribute(popart::OpAttributes& attrs, const std::string& name, const py::handle& v) {
    if (py::isinstance<py::bool_>(v) || py::isinstance<py::int_>(v))
        attrs.set(name, v.cast<int64_t>());
    else if (py::isinstance<py::float_>(v))
        attrs.set(name, v.cast<float>());
    else if (py::isinstance<py::str>(v))
        attrs.set(name, v.cast<std::string>());
    else if (py::isinstance<py::array>(v))
        withArray(py::reinterpret_borrow<py::object>(v), [&](const popart::ConstVoidData& d) {
            attrs.set(name, d);
            return 0;
        });
    else if (py::isinstance<py::sequence>(v) && py::len(v) > 0 &&
             py::isinstance<py::float_>(v.cast<py::sequence>()[0]))
        attrs.set(name, v.cast<std::vector<float>>());
    else if (py::isinstance<py::sequence>(v) && py::len(v) > 0 &&
             py::isinstance<py::str>(v.cast<py::sequence>()[0]))
        attrs.set(name, v.cast<std::vector<std::string>>());
    else if (py::isinstance<py::sequence>(v))
        attrs.set(name, v.cast<Ints>());
    else
        throw popart::error("attribute '" + name + "': unsupported value " +
                            py::repr(v).cast<std::string>());
}

} // namespace

void bindBuilder(py::module_& m) {
    py::class_<popart::DebugContext>(m, "DebugContext")
        .def(py::init<>())
        .def(py::init<std::string>())
        .def("getPathName", &popart::DebugContext::getPathName);
    py::implicitly_convertible<std::string, popart::DebugContext>();

    bindOnnxOps(m);
    bindGraphcoreOps(m);

    using popart::Builder;
    py::class_<Builder> b(m, "_BuilderCore");
    b.def(py::init([]() { return Builder::create(); }))
        .def(py::init([](const py::object& model) {
                 // A file name (str) or a serialized ModelProto (bytes).
                 return Builder::createFromOnnxModel(py::isinstance<py::bytes>(model)
                                                         ? std::string(model.cast<py::bytes>())
                                                         : model.cast<std::string>());
             }),
             py::arg("modelProtoOrFilename"))
        .def("addInputTensor",
             py::overload_cast<const popart::TensorInfo&, const popart::DebugContext&>(
                 &Builder::addInputTensor),
             py::arg("tensorInfo"), py::arg("debugContext") = std::string())
        .def(
            "addInputTensor",
            [](Builder& bd, const std::string& type, const py::handle& shape,
               const std::string& debugContext) {
                return bd.addInputTensor(type, shapeOf(shape), debugContext);
            },
            py::arg("dataType"), py::arg("shape"), py::arg("debugContext") = std::string())
        .def(
            "addInitializedInputTensor",
            [](Builder& bd, const py::object& value, const std::string& debugContext) {
                return withArray(value, [&](const popart::ConstVoidData& d) {
                    return bd.addInitializedInputTensor(d, debugContext);
                });
            },
            py::arg("initVal"), py::arg("debugContext") = std::string())
        .def("addOutputTensor", &Builder::addOutputTensor, py::arg("outputName"))
        .def("aiOnnxOpset", &Builder::aiOnnxOpset, py::arg("version"), py::keep_alive<0, 1>())
        .def_property_readonly("aiGraphcoreOpset1", &Builder::aiGraphcoreOpset1,
                               py::keep_alive<0, 1>())
        .def(
            "customOp",
            [](Builder& bd, const std::string& opName, int opVersion, const std::string& domain,
               const Args& inputs, const py::dict& attributes, unsigned numOutputs,
               const std::string& name) {
                popart::OpAttributes attrs;
                for (auto item : attributes)
                    setAttribute(attrs, py::str(item.first), item.second);
                return bd.customOp(domain, opName, opVersion, inputs, numOutputs, attrs, name);
            },
            py::arg("opName"), py::arg("opVersion"), py::arg("domain"), py::arg("inputs"),
            py::arg("attributes") = py::dict(), py::arg("numOutputs") = 1,
            py::arg("name") = std::string())
        .def("virtualGraph", py::overload_cast<const TensorId&, int64_t>(&Builder::virtualGraph),
             py::arg("nodeOutputName"), py::arg("value") = 0)
        .def("virtualGraph",
             py::overload_cast<const std::set<TensorId>&, int64_t>(&Builder::virtualGraph),
             py::arg("nodeOutputNames"), py::arg("value") = 0)
        .def("getVirtualGraph", &Builder::getVirtualGraph)
        .def("pipelineStage", py::overload_cast<const TensorId&, int64_t>(&Builder::pipelineStage),
             py::arg("nodeOutputName"), py::arg("value"))
        .def("pipelineStage",
             py::overload_cast<const std::set<TensorId>&, int64_t>(&Builder::pipelineStage),
             py::arg("nodeOutputNames"), py::arg("value"))
        .def("getPipelineStage", &Builder::getPipelineStage)
        .def("recomputeOutputInBackwardPass",
             py::overload_cast<const TensorId&, popart::RecomputeType>(
                 &Builder::recomputeOutputInBackwardPass),
             py::arg("nodeOutputName"), py::arg("value") = popart::RecomputeType::Recompute)
        .def("recomputeOutputInBackwardPass",
             py::overload_cast<const std::set<TensorId>&, popart::RecomputeType>(
                 &Builder::recomputeOutputInBackwardPass),
             py::arg("nodeOutputNames"), py::arg("value") = popart::RecomputeType::Recompute)
        .def("getRecomputeOutputInBackwardPass", &Builder::getRecomputeOutputInBackwardPass)
        .def("setAvailableMemoryProportion", &Builder::setAvailableMemoryProportion)
        .def("setAttribute", &Builder::setAttribute)
        .def("clearAttribute", &Builder::clearAttribute)
        .def("hasAttribute", &Builder::hasAttribute)
        .def("getInt64Attribute", &Builder::getInt64Attribute)
        .def("pushNameScope", &Builder::pushNameScope)
        .def("popNameScope", &Builder::popNameScope)
        .def("getNameScope", &Builder::getNameScope, py::arg("name") = std::string())
        .def("setGraphName", &Builder::setGraphName)
        .def(
            "getModelProto",
            [](const Builder& bd, bool humanReadable) {
                return py::bytes(bd.getModelProto(humanReadable));
            },
            py::arg("humanReadable") = false)
        .def("saveModelProto", &Builder::saveModelProto)
        .def("getInputTensorIds", &Builder::getInputTensorIds)
        .def("getOutputTensorIds", &Builder::getOutputTensorIds)
        .def("getValueTensorIds", &Builder::getValueTensorIds)
        .def("getTrainableTensorIds", &Builder::getTrainableTensorIds)
        .def("isInitializer", &Builder::isInitializer)
        .def("getTensorShape", &Builder::getTensorShape)
        .def("getTensorDataType", &Builder::getTensorDataType)
        .def("getTensorDtypeString", &Builder::getTensorDtypeString);
}

} // namespace tilescope::python::popart_face
