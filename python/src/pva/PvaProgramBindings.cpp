// pva.Program (name, type, children, accept) and pva.ProgramVisitor, subclassable in Python with
// one visit<Type> method per program type, as in libpva. An OnTileExecute program also carries
// its compute set: `p.computeset.name` and `.vertices`, one entry per vertex type with
// `.type.name`, `.type.size` and `.countByTile` (a list); so do the compute sets of
// Compilation.computeSets (one Python type, pva.ComputeSet, whose vertices are read when asked).
#include "PvaBindings.hpp"

namespace tilescope::python {

namespace {

/// The instances of a compute set, by vertex type, read when asked for.
std::vector<PyVertex> verticesOf(const PyComputeSet& cs) {
    std::vector<PyVertex> vertices;
    const auto& types = cs.context->vertexTypes();
    for (auto& v : cs.context->reader->vertexInstances(cs.id, true)) {
        PyVertex vertex;
        const auto t = types.find(v.vertexTypeId);
        if (t != types.end())
            vertex.type = PyVertexType{t->second.name, t->second.stateBytes, t->second.codeBytes};
        vertex.count = v.count;
        vertex.countByTile = std::move(v.perTile);
        vertices.push_back(std::move(vertex));
    }
    return vertices;
}

/// The program's compute set, or None when it runs none (every type but OnTileExecute).
py::object computeSetOf(const PyProgram& p) {
    const auto record = p.context->reader->program(p.program->id());
    if (!record || !record->computeSetId)
        return py::none();
    const std::int64_t csId = *record->computeSetId;
    PyComputeSet cs;
    cs.id = csId;
    cs.context = p.context;
    for (const auto& c : p.context->reader->computeSets(csId - 1, 1))
        if (c.id == csId) {
            cs.name = c.name;
            cs.debugPath = c.debugPath;
            cs.numVertices = c.numVertices;
        }
    return py::cast(std::move(cs));
}

const pva::Program::Type kTypes[] = {
    pva::Program::Type::Unknown,
    pva::Program::Type::Sequence,
    pva::Program::Type::Repeat,
    pva::Program::Type::RepeatWhileTrue,
    pva::Program::Type::RepeatWhileFalse,
    pva::Program::Type::If,
    pva::Program::Type::Switch,
    pva::Program::Type::Call,
    pva::Program::Type::Copy,
    pva::Program::Type::StreamCopy,
    pva::Program::Type::OnTileExecute,
    pva::Program::Type::DoExchange,
    pva::Program::Type::GlobalExchange,
    pva::Program::Type::StreamCopyBegin,
    pva::Program::Type::StreamCopyMid,
    pva::Program::Type::StreamCopyEnd,
    pva::Program::Type::Sync,
    pva::Program::Type::Block,
};

/// The base of Python visitors; its visit methods do nothing, so a subclass defines only the
/// ones it needs.
struct ProgramVisitor {};

} // namespace

std::vector<PyProgram> wrapPrograms(const std::vector<std::shared_ptr<pva::Program>>& programs,
                                    const ContextPtr& context) {
    std::vector<PyProgram> wrapped;
    wrapped.reserve(programs.size());
    for (const auto& p : programs)
        wrapped.push_back(PyProgram{p, context});
    return wrapped;
}

py::object wrapProgram(const std::shared_ptr<pva::Program>& program, const ContextPtr& context) {
    if (!program)
        return py::none();
    return py::cast(PyProgram{program, context});
}

void bindProgram(py::module_& m) {
    py::class_<PyVertexType>(m, "VertexType")
        .def_readonly("name", &PyVertexType::name)
        .def_readonly("size", &PyVertexType::size)
        .def_readonly("codeSize", &PyVertexType::codeSize);
    py::class_<PyVertex>(m, "Vertex")
        .def_readonly("type", &PyVertex::type)
        .def_readonly("count", &PyVertex::count)
        .def_readonly("countByTile", &PyVertex::countByTile);
    py::class_<PyComputeSet>(m, "ComputeSet")
        .def_readonly("id", &PyComputeSet::id)
        .def_readonly("name", &PyComputeSet::name)
        .def_readonly("debugPath", &PyComputeSet::debugPath)
        .def_readonly("numVertices", &PyComputeSet::numVertices)
        .def_property_readonly("vertices", &verticesOf,
                               "The compute set's vertices, one entry per vertex type.")
        .def("__repr__",
             [](const PyComputeSet& cs) { return "<pva.ComputeSet '" + cs.name + "'>"; });

    auto program = py::class_<PyProgram>(m, "Program");
    auto type = py::enum_<pva::Program::Type>(program, "Type");
    for (const auto t : kTypes)
        type.value(pva::toString(t).c_str(), t);

    auto visitor = py::class_<ProgramVisitor>(m, "ProgramVisitor");
    visitor.def(py::init<>());
    for (const auto t : kTypes)
        visitor.def(("visit" + pva::toString(t)).c_str(), [](py::object, py::object) {},
                    py::arg("program"));

    program.def_property_readonly("id", [](const PyProgram& p) { return p.program->id(); })
        .def_property_readonly("_id", [](const PyProgram& p) { return p.program->_id(); })
        .def_property_readonly("name", [](const PyProgram& p) { return p.program->name(); })
        .def_property_readonly("type", [](const PyProgram& p) { return p.program->type(); })
        .def_property_readonly("kind", [](const PyProgram& p) { return p.program->kind(); })
        .def_property_readonly("debugPath",
                               [](const PyProgram& p) { return p.program->debugPath(); })
        .def_property_readonly(
            "children",
            [](const PyProgram& p) { return wrapPrograms(p.program->children(), p.context); })
        .def_property_readonly("computeset", &computeSetOf)
        .def_property_readonly("debugContexts",
                               [](const PyProgram& p) { return p.program->debugContexts(); })
        .def(
            "accept",
            [](const PyProgram& p, py::object visitor) {
                const std::string method = "visit" + pva::toString(p.program->type());
                if (!py::hasattr(visitor, method.c_str()))
                    throw py::type_error("pva.Program.accept: the visitor has no " + method +
                                         " method (derive it from pva.ProgramVisitor)");
                visitor.attr(method.c_str())(py::cast(p));
            },
            py::arg("visitor"))
        .def("__repr__", [](const PyProgram& p) {
            return "<pva.Program " + pva::toString(p.program->type()) + " '" + p.program->name() +
                   "'>";
        });
}

} // namespace tilescope::python
