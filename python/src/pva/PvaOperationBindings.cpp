// pva.OperationAnalysis(report).operations: the operations (PopLibs calls and the like) the
// report records, each with its name, debug path, layer, flops when known and its programs.
// Operation.debugContext is the operation's DebugContext (API name, layer, values as JSON);
// replaced debug contexts are not recorded: that property raises pva.Error naming it.
#include "PvaBindings.hpp"

#include <limits>

namespace tilescope::python {

namespace {

/// The report's programs by id, read once per analysis.
using ProgramsById = std::unordered_map<std::int64_t, std::shared_ptr<pva::Program>>;

struct PyOperation {
    report::OperationRecord record;
    pva::DebugContext debugContext;
    std::shared_ptr<const ProgramsById> programs;
    ContextPtr context;
};

struct PyOperationAnalysis {
    std::vector<PyOperation> operations;
};

PyOperationAnalysis analyse(const PyReport& report) {
    PyOperationAnalysis analysis;
    auto programs = std::make_shared<ProgramsById>();
    for (auto& p : report.report.compilation().programs())
        programs->emplace(p->id(), p);
    std::unordered_map<std::int64_t, pva::DebugContext> contexts;
    for (auto& dc : report.report.compilation().debugContexts())
        contexts.emplace(dc.id(), dc);
    constexpr std::int64_t kPage = 1000;
    std::int64_t after = std::numeric_limits<std::int64_t>::min();
    for (;;) {
        auto page = report.context->reader->operations(after, kPage);
        for (auto& op : page) {
            const auto dc = contexts.find(op.id);
            auto context = dc == contexts.end() ? pva::DebugContext() : dc->second;
            analysis.operations.push_back(
                PyOperation{std::move(op), std::move(context), programs, report.context});
        }
        if (static_cast<std::int64_t>(page.size()) < kPage)
            break;
        after = analysis.operations.back().record.id;
    }
    return analysis;
}

[[noreturn]] void notRecorded(const char* what) {
    throw pva::error(std::string("pva.Operation.") + what +
                     ": TileScope reports record an operation's own debug context "
                     "(Operation.debugContext), not the ones it replaced");
}

} // namespace

void bindOperations(py::module_& m) {
    py::class_<PyOperation>(m, "Operation")
        .def_property_readonly("id", [](const PyOperation& o) { return o.record.id; })
        .def_property_readonly("name", [](const PyOperation& o) { return o.record.name; })
        .def_property_readonly("debugPath", [](const PyOperation& o) { return o.record.debugPath; })
        .def_property_readonly("layer", [](const PyOperation& o) { return o.record.layer; })
        .def_property_readonly("flops",
                               [](const PyOperation& o) -> py::object {
                                   if (!o.record.flops)
                                       return py::none();
                                   return py::int_(*o.record.flops);
                               })
        .def_property_readonly("programs",
                               [](const PyOperation& o) {
                                   std::vector<PyProgram> programs;
                                   for (const auto id : o.record.programIds) {
                                       const auto p = o.programs->find(id);
                                       if (p != o.programs->end())
                                           programs.push_back(PyProgram{p->second, o.context});
                                   }
                                   return programs;
                               })
        .def_property_readonly("debugContext", [](const PyOperation& o) { return o.debugContext; })
        .def_property_readonly("replacedDebugContext", [](const PyOperation&) -> py::object {
            notRecorded("replacedDebugContext");
        });

    py::class_<PyOperationAnalysis>(m, "OperationAnalysis")
        .def(py::init(&analyse), py::arg("report"))
        .def_readonly("operations", &PyOperationAnalysis::operations);
}

} // namespace tilescope::python
