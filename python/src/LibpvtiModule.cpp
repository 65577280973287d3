// libpvti._libpvti: the native half of `import libpvti`, over the C++ pvti face (pvti/pvti.hpp),
// so Python tracepoints go to the same HostTracer session as the process's C++ tracepoints: one
// trace file, one clock, PVTI_OPTIONS read the same way (unset: nothing recorded, no file).
#include "pvti/pvti.hpp"
#include "tilescope/capture/HostTracer.hpp"

#include <pybind11/pybind11.h>

namespace py = pybind11;

PYBIND11_MODULE(_libpvti, m) {
    m.doc() = "Native tracepoints behind the libpvti Python module";

    py::class_<pvti::TraceChannel>(m, "TraceChannel")
        .def(py::init<std::string>(), py::arg("name"))
        .def_readonly("name", &pvti::TraceChannel::name)
        .def("__repr__",
             [](const pvti::TraceChannel& c) { return "<libpvti.TraceChannel '" + c.name + "'>"; });

    m.def("begin", [](pvti::TraceChannel* c, const std::string& label) {
        pvti::Tracepoint::begin(c, label);
    });
    m.def("end",
          [](pvti::TraceChannel* c, const std::string& label) { pvti::Tracepoint::end(c, label); });
    m.def("event", [](pvti::TraceChannel* c, const std::string& label) {
        pvti::Tracepoint::event(c, label);
    });

    py::class_<pvti::Series>(m, "Series").def("add", &pvti::Series::add, py::arg("value"));
    py::class_<pvti::Graph>(m, "Graph")
        .def(py::init<const std::string&, const std::string&>(), py::arg("name"), py::arg("unit"))
        .def("addSeries", &pvti::Graph::addSeries, py::arg("name"));

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
