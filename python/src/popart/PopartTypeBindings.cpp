// popart's value types in Python: TensorInfo, AnchorReturnType, DataFlow, SessionOptions,
// InputShapeInfo, Patterns, DeviceManager/DeviceInfo and the optimizers.
#include "PopartBindings.hpp"

#include <map>
#include <popart/dataflow.hpp>
#include <popart/devicemanager.hpp>
#include <popart/error.hpp>
#include <popart/inputshapeinfo.hpp>
#include <popart/optimizer.hpp>
#include <popart/patterns.hpp>
#include <popart/sessionoptions.hpp>
#include <utility>

namespace py = pybind11;

namespace tilescope::python::popart_face {

namespace {

using ParamMap = std::map<std::string, std::pair<float, bool>>;

/// Python dict values of an optimizer: (value, isConst) pairs, or a bare number (const).
ParamMap paramMap(const py::dict& params) {
    ParamMap out;
    for (auto item : params) {
        std::string key = py::str(item.first);
        py::handle v = item.second;
        if (py::isinstance<py::tuple>(v) && py::len(v) == 2)
            out[key] = {v.cast<py::tuple>()[0].cast<float>(), v.cast<py::tuple>()[1].cast<bool>()};
        else if (py::isinstance<py::float_>(v) || py::isinstance<py::int_>(v))
            out[key] = {v.cast<float>(), true};
        else
            throw popart::error("optimizer parameter '" + key +
                                "' must be a number or a (value, isConst) tuple");
    }
    return out;
}

/// Device options as strings ({"numIPUs": 1} and {"numIPUs": "1"} alike).
std::map<std::string, std::string> stringMap(const py::dict& options) {
    std::map<std::string, std::string> out;
    for (auto item : options) {
        py::handle v = item.second;
        if (py::isinstance<py::bool_>(v))
            out[py::str(item.first)] = v.cast<bool>() ? "true" : "false";
        else
            out[py::str(item.first)] = py::str(v);
    }
    return out;
}

void bindTensorInfo(py::module_& m) {
    py::enum_<popart::DataType>(m, "DataType")
        .value("UINT8", popart::DataType::UINT8)
        .value("INT8", popart::DataType::INT8)
        .value("UINT16", popart::DataType::UINT16)
        .value("INT16", popart::DataType::INT16)
        .value("INT32", popart::DataType::INT32)
        .value("INT64", popart::DataType::INT64)
        .value("UINT32", popart::DataType::UINT32)
        .value("UINT64", popart::DataType::UINT64)
        .value("BOOL", popart::DataType::BOOL)
        .value("FLOAT", popart::DataType::FLOAT)
        .value("FLOAT16", popart::DataType::FLOAT16)
        .value("BFLOAT16", popart::DataType::BFLOAT16)
        .value("DOUBLE", popart::DataType::DOUBLE)
        .value("STRING", popart::DataType::STRING)
        .value("UNDEFINED", popart::DataType::UNDEFINED);

    py::class_<popart::TensorInfo>(m, "TensorInfo")
        .def(py::init<>())
        .def(py::init([](const std::string& type, const py::handle& shape) {
                 return popart::TensorInfo(type, shapeOf(shape));
             }),
             py::arg("dataType"), py::arg("shape"))
        .def(py::init([](popart::DataType type, const py::handle& shape) {
                 return popart::TensorInfo(type, shapeOf(shape));
             }),
             py::arg("dataType"), py::arg("shape"))
        // TensorInfo(numpy array): the array's type and shape, as PopART's Python TensorInfo.
        .def(py::init([](const py::array& a) {
                 return popart::TensorInfo(dataTypeOf(a.dtype()),
                                           popart::Shape(a.shape(), a.shape() + a.ndim()));
             }),
             py::arg("array"))
        .def("data_type", &popart::TensorInfo::data_type)
        .def("data_type_lcase",
             [](const popart::TensorInfo& i) { return numpyNameOf(i.dataType()); })
        .def("dataType", &popart::TensorInfo::dataType)
        .def("shape", [](const popart::TensorInfo& i) { return i.shape(); })
        .def("rank", &popart::TensorInfo::rank)
        .def("dim", &popart::TensorInfo::dim)
        .def("nelms", &popart::TensorInfo::nelms)
        .def("nbytes", &popart::TensorInfo::nbytes)
        .def("__eq__", &popart::TensorInfo::operator==)
        .def("__repr__", &popart::TensorInfo::str)
        .def("__str__", &popart::TensorInfo::str);
}

void bindDataFlow(py::module_& m) {
    py::enum_<popart::AnchorReturnTypeId>(m, "AnchorReturnTypeId")
        .value("Final", popart::AnchorReturnTypeId::Final)
        .value("EveryN", popart::AnchorReturnTypeId::EveryN)
        .value("All", popart::AnchorReturnTypeId::All)
        .value("Sum", popart::AnchorReturnTypeId::Sum);

    py::class_<popart::AnchorReturnType>(m, "AnchorReturnType")
        .def(py::init<std::string>(), py::arg("anchorReturnTypeString"))
        .def(py::init<std::string, int>(), py::arg("anchorReturnTypeString"),
             py::arg("returnPeriod"))
        .def("id", &popart::AnchorReturnType::id)
        .def("rp", &popart::AnchorReturnType::rp)
        .def("str", &popart::AnchorReturnType::str);

    py::class_<popart::DataFlow>(m, "DataFlow")
        .def(py::init<>())
        .def(py::init<int, const std::map<popart::TensorId, popart::AnchorReturnType>&>(),
             py::arg("batchesPerStep"), py::arg("anchorTensors"))
        .def(py::init<int, const std::vector<popart::TensorId>&, const popart::AnchorReturnType&>(),
             py::arg("batchesPerStep"), py::arg("anchorIds"),
             py::arg("anchorReturnType") = popart::AnchorReturnType("All"))
        .def("batchesPerStep", &popart::DataFlow::batchesPerStep)
        .def("anchors", &popart::DataFlow::anchors)
        .def("nAnchors", &popart::DataFlow::nAnchors)
        .def("isAnchored", &popart::DataFlow::isAnchored)
        .def("art", &popart::DataFlow::art, py::return_value_policy::copy);
}

void bindOptions(py::module_& m) {
    py::enum_<popart::VirtualGraphMode>(m, "VirtualGraphMode")
        .value("Off", popart::VirtualGraphMode::Off)
        .value("Manual", popart::VirtualGraphMode::Manual)
        .value("Auto", popart::VirtualGraphMode::Auto)
        .value("ExecutionPhases", popart::VirtualGraphMode::ExecutionPhases);
    py::enum_<popart::RecomputationType>(m, "RecomputationType")
        .value("NoRecompute", popart::RecomputationType::None)
        .value("Standard", popart::RecomputationType::Standard)
        .value("NormOnly", popart::RecomputationType::NormOnly)
        .value("RecomputeAll", popart::RecomputationType::RecomputeAll)
        .value("Pipeline", popart::RecomputationType::Pipeline);
    py::enum_<popart::MergeVarUpdateType>(m, "MergeVarUpdateType")
        .value("Off", popart::MergeVarUpdateType::None)
        .value("All", popart::MergeVarUpdateType::All)
        .value("AutoLoose", popart::MergeVarUpdateType::AutoLoose)
        .value("AutoTight", popart::MergeVarUpdateType::AutoTight);
    py::enum_<popart::SyntheticDataMode>(m, "SyntheticDataMode")
        .value("Off", popart::SyntheticDataMode::Off)
        .value("Zeros", popart::SyntheticDataMode::Zeros)
        .value("RandomNormal", popart::SyntheticDataMode::RandomNormal)
        .value("RandomUniform", popart::SyntheticDataMode::RandomUniform);
    py::enum_<popart::ReductionType>(m, "ReductionType")
        .value("Sum", popart::ReductionType::Sum)
        .value("Mean", popart::ReductionType::Mean)
        .value("NoReduction", popart::ReductionType::NoReduction);
    py::enum_<popart::MeanReductionStrategy>(m, "MeanReductionStrategy")
        .value("Running", popart::MeanReductionStrategy::Running)
        .value("Post", popart::MeanReductionStrategy::Post)
        .value("PostAndLoss", popart::MeanReductionStrategy::PostAndLoss);
    py::enum_<popart::RecomputeType>(m, "RecomputeType")
        .value("Undefined", popart::RecomputeType::Undefined)
        .value("Checkpoint", popart::RecomputeType::Checkpoint)
        .value("Recompute", popart::RecomputeType::Recompute)
        .value("Recomputed", popart::RecomputeType::Recomputed);

    using SO = popart::SessionOptions;
    py::class_<SO>(m, "SessionOptions")
        .def(py::init<>())
        .def_readwrite("logDir", &SO::logDir)
        .def_readwrite("engineOptions", &SO::engineOptions)
        .def_readwrite("reportOptions", &SO::reportOptions)
        .def_readwrite("convolutionOptions", &SO::convolutionOptions)
        .def_readwrite("matmulOptions", &SO::matmulOptions)
        .def_readwrite("lstmOptions", &SO::lstmOptions)
        .def_readwrite("gclOptions", &SO::gclOptions)
        .def_readwrite("virtualGraphMode", &SO::virtualGraphMode)
        .def_readwrite("enablePipelining", &SO::enablePipelining)
        .def_readwrite("autoRecomputation", &SO::autoRecomputation)
        .def_readwrite("enableReplicatedGraphs", &SO::enableReplicatedGraphs)
        .def_readwrite("replicatedGraphCount", &SO::replicatedGraphCount)
        .def_readwrite("enableGradientAccumulation", &SO::enableGradientAccumulation)
        .def_readwrite("accumulationFactor", &SO::accumulationFactor)
        .def_readwrite("accumulationAndReplicationReductionType",
                       &SO::accumulationAndReplicationReductionType)
        .def_readwrite("meanAccumulationAndReplicationReductionStrategy",
                       &SO::meanAccumulationAndReplicationReductionStrategy)
        .def_readwrite("syntheticDataMode", &SO::syntheticDataMode)
        .def_readwrite("enableOutlining", &SO::enableOutlining)
        .def_readwrite("enableStochasticRounding", &SO::enableStochasticRounding)
        .def_readwrite("enableFloatingPointChecks", &SO::enableFloatingPointChecks)
        .def_readwrite("enableEngineCaching", &SO::enableEngineCaching)
        .def_readwrite("cachePath", &SO::cachePath)
        .def_readwrite("constantWeights", &SO::constantWeights)
        .def_readwrite("instrumentWithHardwareCycleCounter",
                       &SO::instrumentWithHardwareCycleCounter)
        .def_readwrite("enablePrefetchDatastreams", &SO::enablePrefetchDatastreams)
        .def_readwrite("enableNonStableSoftmax", &SO::enableNonStableSoftmax)
        .def_readwrite("enableFullyConnectedPass", &SO::enableFullyConnectedPass)
        .def_readwrite("disableGradAccumulationTensorStreams",
                       &SO::disableGradAccumulationTensorStreams)
        .def_readwrite("compileEngine", &SO::compileEngine)
        .def_readwrite("enableExplicitMainLoops", &SO::enableExplicitMainLoops)
        .def_readwrite("useHostCopyOps", &SO::useHostCopyOps)
        .def_readwrite("hostAllReduce", &SO::hostAllReduce)
        .def_readwrite("enableDistributedReplicatedGraphs", &SO::enableDistributedReplicatedGraphs)
        .def_readwrite("globalReplicationFactor", &SO::globalReplicationFactor)
        .def_readwrite("globalReplicaOffset", &SO::globalReplicaOffset)
        .def_readwrite("mergeVarUpdate", &SO::mergeVarUpdate)
        .def_readwrite("mergeVarUpdateMemThreshold", &SO::mergeVarUpdateMemThreshold)
        .def_readwrite("outlineThreshold", &SO::outlineThreshold)
        .def_readwrite("timeLimitScheduler", &SO::timeLimitScheduler)
        .def_readwrite("swapLimitScheduler", &SO::swapLimitScheduler)
        .def_readwrite("kahnTieBreaker", &SO::kahnTieBreaker)
        .def_readwrite("dotChecks", &SO::dotChecks)
        .def_readwrite("firstDotOp", &SO::firstDotOp)
        .def_readwrite("finalDotOp", &SO::finalDotOp)
        .def_readwrite("dotOpNames", &SO::dotOpNames)
        .def_readwrite("exportPoplarComputationGraph", &SO::exportPoplarComputationGraph)
        .def_readwrite("exportPoplarVertexGraph", &SO::exportPoplarVertexGraph)
        // An option this library does not have raises AttributeError naming it (pybind11
        // objects take no new attributes), never a silently ignored setting.
        .def("notApplying", &SO::notApplying);

    py::class_<popart::InputShapeInfo>(m, "InputShapeInfo")
        .def(py::init<>())
        .def("add", &popart::InputShapeInfo::add)
        .def("has", &popart::InputShapeInfo::has)
        .def("get", &popart::InputShapeInfo::get, py::return_value_policy::copy);

    py::enum_<popart::PatternsLevel>(m, "PatternsLevel")
        .value("NoPatterns", popart::PatternsLevel::NoPatterns)
        .value("Minimal", popart::PatternsLevel::Minimal)
        .value("Default", popart::PatternsLevel::Default)
        .value("All", popart::PatternsLevel::All);
    py::class_<popart::Patterns>(m, "Patterns")
        .def(py::init<>())
        .def(py::init<popart::PatternsLevel>())
        .def("enablePattern", &popart::Patterns::enablePattern, py::return_value_policy::reference)
        .def("isPatternEnabled", &popart::Patterns::isPatternEnabled)
        .def("enableRuntimeAsserts", &popart::Patterns::enableRuntimeAsserts,
             py::return_value_policy::reference);
}

void bindDevices(py::module_& m) {
    py::enum_<popart::DeviceType>(m, "DeviceType")
        .value("IpuModel", popart::DeviceType::IpuModel)
        .value("Cpu", popart::DeviceType::Cpu)
        .value("Ipu", popart::DeviceType::Ipu)
        .value("OfflineIpu", popart::DeviceType::OfflineIpu)
        .value("Sim", popart::DeviceType::Sim);
    py::enum_<popart::DeviceConnectionType>(m, "DeviceConnectionType")
        .value("Always", popart::DeviceConnectionType::Always)
        .value("OnDemand", popart::DeviceConnectionType::OnDemand)
        .value("Never", popart::DeviceConnectionType::Never);
    py::enum_<popart::SyncPattern>(m, "SyncPattern")
        .value("Full", popart::SyncPattern::Full)
        .value("SinglePipeline", popart::SyncPattern::SinglePipeline)
        .value("ReplicaAndLadder", popart::SyncPattern::ReplicaAndLadder);
    py::enum_<popart::DeviceSelectionCriterion>(m, "DeviceSelectionCriterion")
        .value("First", popart::DeviceSelectionCriterion::First)
        .value("Random", popart::DeviceSelectionCriterion::Random);

    py::class_<popart::DeviceInfo, std::shared_ptr<popart::DeviceInfo>>(m, "DeviceInfo")
        .def("attach", &popart::DeviceInfo::attach)
        .def("detach", &popart::DeviceInfo::detach)
        .def_property_readonly("isAttached", &popart::DeviceInfo::isAttached)
        .def_property_readonly("type", &popart::DeviceInfo::getType)
        .def_property_readonly("connectionType", &popart::DeviceInfo::getConnectionType)
        .def_property_readonly("id", &popart::DeviceInfo::getId)
        .def_property_readonly("version", &popart::DeviceInfo::getVersion)
        .def_property_readonly("numIpus", &popart::DeviceInfo::getNumIpus)
        .def_property_readonly("tilesPerIPU", &popart::DeviceInfo::getTilesPerIPU)
        .def_property_readonly("numWorkerContexts", &popart::DeviceInfo::getNumWorkerContexts)
        .def("__repr__", &popart::DeviceInfo::toString);

    // DeviceManager() in Python is the process's one manager, as in PopART.
    py::class_<popart::DeviceManager, std::unique_ptr<popart::DeviceManager, py::nodelete>>(
        m, "DeviceManager")
        .def(py::init([]() {
            return std::unique_ptr<popart::DeviceManager, py::nodelete>(
                &popart::DeviceManager::createDeviceManager());
        }))
        .def("createCpuDevice", &popart::DeviceManager::createCpuDevice)
        .def(
            "createIpuModelDevice",
            [](popart::DeviceManager& dm, const py::dict& options) {
                return dm.createIpuModelDevice(stringMap(options));
            },
            py::arg("options") = py::dict())
        .def(
            "createOfflineIPUDevice",
            [](popart::DeviceManager& dm, const py::dict& options) {
                return dm.createOfflineIPUDevice(stringMap(options));
            },
            py::arg("options") = py::dict())
        .def(
            "createSimDevice",
            [](popart::DeviceManager& dm, const py::dict& options) {
                return dm.createSimDevice(stringMap(options));
            },
            py::arg("options") = py::dict())
        .def("acquireAvailableDevice", &popart::DeviceManager::acquireAvailableDevice,
             py::arg("numIpus") = 1, py::arg("tilesPerIpu") = 0,
             py::arg("pattern") = popart::SyncPattern::Full,
             py::arg("connectionType") = popart::DeviceConnectionType::Always,
             py::arg("selectionCriterion") = popart::DeviceSelectionCriterion::First)
        .def("tryAcquireAvailableDevice", &popart::DeviceManager::tryAcquireAvailableDevice,
             py::arg("numIpus") = 1, py::arg("tilesPerIpu") = 0,
             py::arg("pattern") = popart::SyncPattern::Full,
             py::arg("connectionType") = popart::DeviceConnectionType::Always,
             py::arg("selectionCriterion") = popart::DeviceSelectionCriterion::First)
        .def("acquireDeviceById", &popart::DeviceManager::acquireDeviceById, py::arg("id"),
             py::arg("pattern") = popart::SyncPattern::Full,
             py::arg("connectionType") = popart::DeviceConnectionType::Always)
        .def("enumerateDevices", &popart::DeviceManager::enumerateDevices,
             py::arg("pattern") = popart::SyncPattern::Full, py::arg("numIpus") = 1,
             py::arg("deviceType") = popart::DeviceType::Ipu,
             py::arg("connectionType") = popart::DeviceConnectionType::Always,
             py::arg("tilesPerIpu") = 0);
}

void bindOptimizers(py::module_& m) {
    py::class_<popart::OptimizerValue>(m, "OptimizerValue")
        .def(py::init<>())
        .def(py::init<float>())
        .def(py::init<float, bool>())
        .def("val", &popart::OptimizerValue::val)
        .def("isConst", &popart::OptimizerValue::isConst);
    py::implicitly_convertible<float, popart::OptimizerValue>();

    py::enum_<popart::WeightDecayMode>(m, "WeightDecayMode")
        .value("Decay", popart::WeightDecayMode::Decay)
        .value("L2Regularization", popart::WeightDecayMode::L2Regularization);
    py::enum_<popart::AdamMode>(m, "AdamMode")
        .value("Adam", popart::AdamMode::Adam)
        .value("AdamNoBias", popart::AdamMode::AdamNoBias)
        .value("AdaMax", popart::AdamMode::AdaMax)
        .value("Lamb", popart::AdamMode::Lamb)
        .value("LambNoBias", popart::AdamMode::LambNoBias);

    py::class_<popart::Optimizer>(m, "Optimizer")
        .def("type_s", &popart::Optimizer::type_s)
        .def("getLossScalingVal", &popart::Optimizer::getLossScalingVal)
        .def("insertSpecific",
             [](popart::Optimizer& o, const popart::TensorId& weight, const py::dict& params) {
                 o.insertSpecific(weight, paramMap(params));
             });

    py::enum_<popart::AdaptiveMode>(m, "AdaptiveMode")
        .value("AdaGrad", popart::AdaptiveMode::AdaGrad)
        .value("RMSProp", popart::AdaptiveMode::RMSProp)
        .value("CenteredRMSProp", popart::AdaptiveMode::CenteredRMSProp)
        .value("AdaDelta", popart::AdaptiveMode::AdaDelta);

    // PopART's argument names: SGD(pyd, ...), Adam(values, mode, weight_decay_mode, ...),
    // Adaptive(values, mode, weight_decay_mode, ..., rmsprop_tf_variant).
    py::class_<popart::SGD, popart::Optimizer>(m, "SGD")
        .def(py::init([](const py::dict& params) { return popart::SGD(paramMap(params)); }),
             py::arg("pyd"))
        .def(py::init<popart::OptimizerValue, popart::OptimizerValue, popart::OptimizerValue,
                      popart::OptimizerValue, popart::OptimizerValue, popart::OptimizerValue,
                      popart::OptimizerValue>(),
             py::arg("defaultLearningRate"), py::arg("defaultWeightDecay") = 0.0f,
             py::arg("defaultMomentum") = 0.0f, py::arg("defaultDampening") = 0.0f,
             py::arg("defaultVelocityScaling") = 1.0f, py::arg("lossScaling") = 1.0f,
             py::arg("nesterov") = 0.0f);

    py::class_<popart::ConstSGD, popart::SGD>(m, "ConstSGD")
        .def(py::init<float, float, float>(), py::arg("learning_rate"),
             py::arg("weight_decay") = 0.0f, py::arg("loss_scaling") = 1.0f);

    py::class_<popart::Adam, popart::Optimizer>(m, "Adam")
        .def(py::init([](const py::dict& params, popart::AdamMode mode,
                         popart::WeightDecayMode decay, popart::DataType accumType,
                         popart::DataType accl1Type, popart::DataType accl2Type) {
                 return popart::Adam(paramMap(params), mode, decay, accumType, accl1Type,
                                     accl2Type);
             }),
             py::arg("values"), py::arg("mode") = popart::AdamMode::Adam,
             py::arg("weight_decay_mode") = popart::WeightDecayMode::Decay,
             py::arg("accum_type") = popart::DataType::FLOAT,
             py::arg("accl1_type") = popart::DataType::FLOAT,
             py::arg("accl2_type") = popart::DataType::FLOAT)
        .def("getMode", &popart::Adam::getMode)
        .def("getWeightDecayMode", &popart::Adam::getWeightDecayMode);

    py::class_<popart::Adaptive, popart::Optimizer>(m, "Adaptive")
        .def(py::init([](const py::dict& params, popart::AdaptiveMode mode,
                         popart::WeightDecayMode decay, popart::DataType accumType,
                         popart::DataType accl1Type, popart::DataType accl2Type,
                         popart::DataType accl3Type, bool tfVariant) {
                 return popart::Adaptive(paramMap(params), mode, decay, accumType, accl1Type,
                                         accl2Type, accl3Type, tfVariant);
             }),
             py::arg("values"), py::arg("mode") = popart::AdaptiveMode::RMSProp,
             py::arg("weight_decay_mode") = popart::WeightDecayMode::Decay,
             py::arg("accum_type") = popart::DataType::FLOAT,
             py::arg("accl1_type") = popart::DataType::FLOAT,
             py::arg("accl2_type") = popart::DataType::FLOAT,
             py::arg("accl3_type") = popart::DataType::FLOAT, py::arg("rmsprop_tf_variant") = false)
        .def("getMode", &popart::Adaptive::getMode)
        .def("getWeightDecayMode", &popart::Adaptive::getWeightDecayMode);
}

} // namespace

void bindTypes(py::module_& m) {
    bindTensorInfo(m);
    bindDataFlow(m);
    bindOptions(m);
    bindDevices(m);
    bindOptimizers(m);
}

} // namespace tilescope::python::popart_face
