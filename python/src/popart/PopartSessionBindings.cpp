// popart's sessions in Python: `_InferenceSessionCore` and `_TrainingSessionCore` (wrapped by
// popart.InferenceSession/TrainingSession in session.py), and PyStepIO/PyWeightsIO over numpy.
#include "PopartBindings.hpp"

#include <map>
#include <popart/dataflow.hpp>
#include <popart/devicemanager.hpp>
#include <popart/error.hpp>
#include <popart/inputshapeinfo.hpp>
#include <popart/optimizer.hpp>
#include <popart/patterns.hpp>
#include <popart/session.hpp>
#include <popart/sessionoptions.hpp>
#include <popart/stepio.hpp>

namespace py = pybind11;

namespace tilescope::python::popart_face {

namespace {

using popart::TensorId;

/// A model argument: a file name (str) or a serialized ModelProto (bytes).
std::string modelArgument(const py::object& model) {
    if (py::isinstance<py::bytes>(model))
        return std::string(model.cast<py::bytes>());
    if (py::isinstance<py::str>(model))
        return model.cast<std::string>();
    throw popart::error("fnModel must be a file name (str) or a serialized ModelProto (bytes)");
}

/// IStepIO over numpy arrays: the input arrays (made contiguous once, at construction) and the
/// caller's anchor arrays (written in place, so they must be C-contiguous and writable). Each
/// in()/out() hands out the next slice of numElements, wrapping at the end of the array, so
/// arrays of batchesPerStep x shape feed a whole step. The buffers are raw pointers taken with
/// the GIL held: run() releases the GIL while the device works.
class PyStepIO : public popart::IStepIO {
public:
    PyStepIO(const std::map<TensorId, py::array>& inputs,
             const std::map<TensorId, py::array>& outputs) {
        for (const auto& [id, array] : inputs)
            inputs_[id] = cursor(contiguous(array), id, false);
        for (const auto& [id, array] : outputs) {
            if (!(array.flags() & py::array::c_style) || !array.writeable())
                throw popart::error("PyStepIO: the anchor array of '" + id +
                                    "' must be a writable C-contiguous numpy array");
            outputs_[id] = cursor(array, id, true);
        }
    }

    popart::ConstVoidData in(TensorId id, int64_t numElements, bool) override {
        Cursor& c = find(inputs_, id, "input");
        return popart::ConstVoidData(c.base + c.offset * c.elementSize, slice(c, numElements, id));
    }
    void inComplete(TensorId id, int64_t numElements) override {
        advance(find(inputs_, id, "input"), numElements);
    }
    popart::MutableVoidData out(TensorId id, int64_t numElements) override {
        Cursor& c = find(outputs_, id, "anchor");
        popart::MutableVoidData d(c.base + c.offset * c.elementSize, slice(c, numElements, id));
        advance(c, numElements);
        return d;
    }

private:
    struct Cursor {
        py::array array; // keeps the buffer alive
        char* base = nullptr;
        popart::DataType type = popart::DataType::UNDEFINED;
        int64_t elementSize = 0;
        int64_t total = 0;
        int64_t offset = 0;
    };

    static Cursor cursor(py::array array, const TensorId& id, bool writable) {
        Cursor c;
        c.array = array;
        c.base =
            static_cast<char*>(writable ? array.mutable_data() : const_cast<void*>(array.data()));
        try {
            c.type = dataTypeOf(array.dtype());
        } catch (const popart::error& e) {
            throw popart::error("PyStepIO: tensor '" + id + "': " + e.what());
        }
        c.elementSize = array.itemsize();
        c.total = array.size();
        return c;
    }

    static Cursor& find(std::map<TensorId, Cursor>& m, const TensorId& id, const char* what) {
        auto it = m.find(id);
        if (it == m.end())
            throw popart::error(std::string("PyStepIO: no ") + what + " array for tensor '" + id +
                                "'");
        return it->second;
    }

    static popart::TensorInfo slice(const Cursor& c, int64_t numElements, const TensorId& id) {
        // An empty tensor reads and writes nothing.
        if (numElements != 0 && (numElements > c.total || c.total % numElements != 0))
            throw popart::error("PyStepIO: the array of '" + id + "' holds " +
                                std::to_string(c.total) + " elements, not a whole number of " +
                                std::to_string(numElements) + "-element batches");
        return popart::TensorInfo(c.type, popart::Shape{numElements});
    }

    static void advance(Cursor& c, int64_t numElements) {
        if (numElements == 0)
            return;
        c.offset += numElements;
        if (c.offset >= c.total)
            c.offset = 0;
    }

    std::map<TensorId, Cursor> inputs_;
    std::map<TensorId, Cursor> outputs_;
};

/// IWeightsIO over numpy arrays (readWeights fills them; writeWeights reads them).
class PyWeightsIO : public popart::IWeightsIO {
public:
    explicit PyWeightsIO(const std::map<TensorId, py::array>& weights) {
        for (auto [id, array] : weights) {
            if (!(array.flags() & py::array::c_style) || !array.writeable())
                throw popart::error("PyWeightsIO: the array of '" + id +
                                    "' must be a writable C-contiguous numpy array");
            arrays_[id] = array;
            popart::Shape shape(array.shape(), array.shape() + array.ndim());
            weights_.insert(
                id, popart::MutableVoidData(array.mutable_data(),
                                            popart::TensorInfo(dataTypeOf(array.dtype()), shape)));
        }
    }
    bool contains(TensorId id) const override { return weights_.contains(id); }
    popart::MutableVoidData weight(TensorId id) const override { return weights_.weight(id); }

private:
    std::map<TensorId, py::array> arrays_;
    popart::WeightsIO weights_;
};

void bindSessionMethods(py::module_& m) {
    using popart::Session;
    // The base of both session cores (not constructible from Python).
    py::class_<Session> c(m, "_SessionCore");
    c.def("prepareDevice", &Session::prepareDevice, py::arg("loadEngine") = true,
          py::call_guard<py::gil_scoped_release>())
        .def("loadEngineAndConnectStreams", &Session::loadEngineAndConnectStreams,
             py::call_guard<py::gil_scoped_release>())
        .def("weightsFromHost", &Session::weightsFromHost, py::call_guard<py::gil_scoped_release>())
        .def("weightsToHost", &Session::weightsToHost, py::call_guard<py::gil_scoped_release>())
        .def(
            "readWeights", [](Session& s, const PyWeightsIO& io) { s.readWeights(io); },
            py::arg("weightsIo"))
        .def(
            "writeWeights", [](Session& s, const PyWeightsIO& io) { s.writeWeights(io); },
            py::arg("weightsIo"))
        .def(
            "run",
            [](Session& s, PyStepIO& stepio, const std::string& debugName) {
                py::gil_scoped_release release;
                s.run(stepio, debugName);
            },
            py::arg("stepio"), py::arg("debugName") = std::string())
        .def("modelToHost", &Session::modelToHost, py::arg("fn"),
             py::call_guard<py::gil_scoped_release>())
        .def(
            "resetHostWeights",
            [](Session& s, const py::object& model, bool ignoreMissing) {
                s.resetHostWeights(modelArgument(model), ignoreMissing);
            },
            py::arg("modelProtoOrFilename"),
            py::arg("ignoreWeightsInModelWithoutCorrespondingHostWeight") = false)
        .def("getInfo", &Session::getInfo, py::arg("id"))
        .def("hasInfo", &Session::hasInfo, py::arg("id"))
        .def("getWeightIds", &Session::getWeightIds)
        .def("getSummaryReport", &Session::getSummaryReport, py::arg("resetProfile") = true)
        .def("getSerializedGraph",
             [](const Session& s) { return py::bytes(s.getSerializedGraph()); })
        .def("getReportPath", &Session::getReportPath)
        .def("setRandomSeed", &Session::setRandomSeed, py::arg("seedValue"))
        .def("getCycleCount", &Session::getCycleCount)
        .def("compileAndExport", &Session::compileAndExport, py::arg("filename"));
}

} // namespace

void bindSessions(py::module_& m) {
    py::class_<PyStepIO>(m, "PyStepIO")
        .def(py::init<const std::map<TensorId, py::array>&, const std::map<TensorId, py::array>&>(),
             py::arg("inputs"), py::arg("outputs"))
        .def("enableRuntimeAsserts", &PyStepIO::enableRuntimeAsserts);
    py::class_<PyWeightsIO>(m, "PyWeightsIO")
        .def(py::init<const std::map<TensorId, py::array>&>(), py::arg("weights"));

    bindSessionMethods(m);
    py::class_<popart::InferenceSession, popart::Session> inference(m, "_InferenceSessionCore");
    inference.def(
        py::init([](const py::object& model, const popart::DataFlow& dataFlow,
                    std::shared_ptr<popart::DeviceInfo> device,
                    const popart::InputShapeInfo& shapes, const popart::SessionOptions& options,
                    const popart::Patterns& patterns, const std::string& name) {
            return popart::InferenceSession::createFromOnnxModel(
                modelArgument(model), dataFlow, std::move(device), shapes, options, patterns, name);
        }),
        py::arg("fnModel"), py::arg("dataFlow"), py::arg("deviceInfo"), py::arg("inputShapeInfo"),
        py::arg("userOptions"), py::arg("patterns"), py::arg("name"));

    py::class_<popart::TrainingSession, popart::Session> training(m, "_TrainingSessionCore");
    training.def(
        py::init([](const py::object& model, const popart::DataFlow& dataFlow, const TensorId& loss,
                    const popart::Optimizer& optimizer, std::shared_ptr<popart::DeviceInfo> device,
                    const popart::InputShapeInfo& shapes, const popart::SessionOptions& options,
                    const popart::Patterns& patterns, const std::string& name) {
            return popart::TrainingSession::createFromOnnxModel(modelArgument(model), dataFlow,
                                                                loss, optimizer, std::move(device),
                                                                shapes, options, patterns, name);
        }),
        py::arg("fnModel"), py::arg("dataFlow"), py::arg("loss"), py::arg("optimizer"),
        py::arg("deviceInfo"), py::arg("inputShapeInfo"), py::arg("userOptions"),
        py::arg("patterns"), py::arg("name"));
    training.def("updateOptimizerFromHost", &popart::TrainingSession::updateOptimizerFromHost,
                 py::arg("optimizer"));
}

} // namespace tilescope::python::popart_face
