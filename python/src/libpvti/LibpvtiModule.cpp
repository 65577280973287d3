// libpvti._libpvti: the native half of `import libpvti`, over the C++ pvti face (pvti/pvti.hpp),
// so Python tracepoints go to the same HostTracer session as the process's C++ tracepoints: one
// trace file, one clock, PVTI_OPTIONS read the same way (unset: nothing recorded, no file).
#include "pvti/pvti.hpp"
#include "tilescope/capture/HostTracer.hpp"

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

namespace py = pybind11;

namespace {

template <typename T> void bindHeatmap(py::module_& m, const char* name) {
    using H = pvti::Heatmap<T>;
    py::class_<H>(m, name)
        .def(py::init<const std::string&, const std::vector<T>&, const std::string&,
                      pvti::TraceChannel*>(),
             py::arg("name"), py::arg("buckets"), py::arg("units") = "",
             py::arg("channel") = nullptr, py::keep_alive<1, 5>())
        .def("add", py::overload_cast<const std::vector<T>&>(&H::add), py::arg("values"))
        .def("add", py::overload_cast<T>(&H::add), py::arg("value"))
        .def_property_readonly("name", &H::name)
        .def_property_readonly("buckets", &H::edges);
}

} // namespace

PYBIND11_MODULE(_libpvti, m) {
    m.doc() = "Native tracepoints behind the libpvti Python module";

    py::class_<pvti::TraceChannel>(m, "TraceChannel")
        .def(py::init<std::string, bool>(), py::arg("name"), py::arg("enabled") = true)
        .def_readonly("name", &pvti::TraceChannel::name)
        .def("__repr__",
             [](const pvti::TraceChannel& c) { return "<libpvti.TraceChannel '" + c.name + "'>"; });
    // libpvti's predefined channels, the C++ objects themselves: disabling one in Python disables
    // the process's C++ tracepoints on it too.
    m.attr("traceDrivers") = py::cast(&pvti::traceDrivers, py::return_value_policy::reference);
    m.attr("tracePoplar") = py::cast(&pvti::tracePoplar, py::return_value_policy::reference);
    m.attr("traceFramework") = py::cast(&pvti::traceFramework, py::return_value_policy::reference);
    m.def("enableTraceChannel", &pvti::enableTraceChannel, py::arg("channel"));
    m.def("disableTraceChannel", &pvti::disableTraceChannel, py::arg("channel"));
    m.def("checkTraceChannel", &pvti::checkTraceChannel, py::arg("channel"),
          "True when the channel's tracepoints are recorded (tracing on, channel admitted by "
          "PVTI_OPTIONS `channels` and not disabled).");
    m.def(
        "listTraceChannel",
        [] {
            py::list out;
            for (auto* c : pvti::listTraceChannel()) {
                py::list entry; // [name, recorded], as libpvti prints it
                entry.append(c->name);
                entry.append(pvti::checkTraceChannel(c));
                out.append(entry);
            }
            return out;
        },
        "Every channel of the process as [name, recorded] pairs, in the order they were made.");
    m.def("getCurrentTraceFilename", &pvti::getCurrentTraceFilename,
          "The trace file of this process, empty when PVTI_OPTIONS does not enable tracing.");
    m.def("closeTrace", &pvti::closeTrace,
          "Flushes and closes the trace file (done at exit; later tracepoints are not recorded).");

    // Tracepoint metadata: a blob with a type; data given as bytes (or str, stored as UTF-8).
    py::class_<pvti::Metadata>(m, "Metadata")
        .def(py::init<>())
        .def(py::init([](const std::string& type, const std::string& data) {
                 return pvti::Metadata(type, std::vector<std::uint8_t>(data.begin(), data.end()));
             }),
             py::arg("type"), py::arg("data"))
        .def_readwrite("type", &pvti::Metadata::type)
        .def_property(
            "data",
            [](const pvti::Metadata& md) {
                return py::bytes(reinterpret_cast<const char*>(md.data.data()), md.data.size());
            },
            [](pvti::Metadata& md, const std::string& data) {
                md.data.assign(data.begin(), data.end());
            })
        .def("__repr__", [](const pvti::Metadata& md) {
            return "<libpvti.Metadata type='" + md.type + "' " + std::to_string(md.data.size()) +
                   " bytes>";
        });
    m.def("createJsonMetadata", &pvti::createJsonMetadata, py::arg("json"),
          "Metadata of type 'json' holding the text; ValueError when it is not valid JSON.");

    m.def(
        "begin",
        [](pvti::TraceChannel* c, const std::string& label, const pvti::Metadata* metadata) {
            pvti::Tracepoint::begin(c, label, metadata);
        },
        py::arg("channel"), py::arg("label"), py::arg("metadata") = nullptr);
    m.def(
        "end",
        [](pvti::TraceChannel* c, const std::string& label, const pvti::Metadata* metadata) {
            pvti::Tracepoint::end(c, label, metadata);
        },
        py::arg("channel"), py::arg("label"), py::arg("metadata") = nullptr);
    m.def(
        "event",
        [](pvti::TraceChannel* c, const std::string& label, const pvti::Metadata* metadata) {
            pvti::Tracepoint::event(c, label, metadata);
        },
        py::arg("channel"), py::arg("label"), py::arg("metadata") = nullptr);

    py::class_<pvti::Series>(m, "Series").def("add", &pvti::Series::add, py::arg("value"));
    py::class_<pvti::Graph>(m, "Graph")
        .def(py::init<const std::string&, const std::string&>(), py::arg("name"),
             py::arg("unit") = "")
        .def("addSeries", &pvti::Graph::addSeries, py::arg("name"));

    // Heatmaps: values counted per bucket over time; values outside the edges land in the outer
    // buckets (see pvti/Heatmap.hpp).
    bindHeatmap<double>(m, "HeatmapDouble");
    bindHeatmap<std::uint64_t>(m, "HeatmapUInt64");

    using tilescope::capture::HostTracer;
    m.def(
        "traceFile", [] { return HostTracer::instance().file().string(); },
        "The trace file of this process, empty when PVTI_OPTIONS does not enable tracing.");
    m.def(
        "flush", [] { HostTracer::instance().flush(); },
        "Writes every tracepoint recorded so far to the trace file.");
    m.def(
        "close", [] { HostTracer::instance().close(); },
        "Flushes and closes the trace file (done at exit; later tracepoints are not recorded).");
}
