// pva.openReport, Report, Compilation and the compile-time value types (target, graph, tiles with
// memory, compute sets, variables, liveness steps), with libpva's Python names: properties, not
// getters, and lists that iterate and index.
#include "PvaBindings.hpp"
#include "tilescope/report/ReportError.hpp"

namespace tilescope::python {

const std::unordered_map<std::int64_t, report::VertexTypeRecord>& ReportContext::vertexTypes() {
    if (!vertexTypesRead_) {
        for (auto& t : reader->vertexTypes())
            vertexTypes_.emplace(t.id, std::move(t));
        vertexTypesRead_ = true;
    }
    return vertexTypes_;
}

py::array_t<std::uint64_t> toNumpy(const std::vector<std::uint64_t>& values) {
    py::array_t<std::uint64_t> array(static_cast<py::ssize_t>(values.size()));
    if (!values.empty())
        std::memcpy(array.mutable_data(), values.data(), values.size() * sizeof(std::uint64_t));
    return array;
}

namespace {

PyReport openReport(const std::string& path, const std::string& debugInfo) {
    pva::Report report = pva::openReport(path, debugInfo);
    try {
        return PyReport{report, std::make_shared<ReportContext>(path)};
    } catch (const report::ReportError& e) {
        throw pva::openfile_error(e.what());
    }
}

void bindMemory(py::module_& m) {
    py::class_<pva::MemoryCategory>(m, "MemoryCategory")
        .def_property_readonly("total", &pva::MemoryCategory::total)
        .def_property_readonly("interleaved", &pva::MemoryCategory::interleaved)
        .def_property_readonly("nonInterleaved", &pva::MemoryCategory::nonInterleaved)
        .def_property_readonly("overflowed", &pva::MemoryCategory::overflowed);

    auto categories = py::class_<pva::MemoryCategories>(m, "MemoryCategories");
    // One read-only property per category, named as in libpva.
#define TILESCOPE_CATEGORY(name)                                                                   \
    categories.def_property_readonly(#name, [](const pva::MemoryCategories& c) { return c.name; })
    TILESCOPE_CATEGORY(vertexCode);
    TILESCOPE_CATEGORY(vertexInstanceState);
    TILESCOPE_CATEGORY(vertexDescriptors);
    TILESCOPE_CATEGORY(vertexFieldData);
    TILESCOPE_CATEGORY(controlCode);
    TILESCOPE_CATEGORY(internalExchangeCode);
    TILESCOPE_CATEGORY(hostExchangeCode);
    TILESCOPE_CATEGORY(globalExchangeCode);
    TILESCOPE_CATEGORY(exchangeBuffers);
    TILESCOPE_CATEGORY(variable);
    TILESCOPE_CATEGORY(notAlwaysLiveVariable);
    TILESCOPE_CATEGORY(constant);
    TILESCOPE_CATEGORY(stack);
    TILESCOPE_CATEGORY(instrumentationResults);
    TILESCOPE_CATEGORY(gap);
    TILESCOPE_CATEGORY(copyDescriptor);
    TILESCOPE_CATEGORY(hostExchangePacketHeader);
    TILESCOPE_CATEGORY(globalExchangePacketHeader);
    TILESCOPE_CATEGORY(controlTable);
#undef TILESCOPE_CATEGORY
    categories.def("byName", &pva::MemoryCategories::byName, py::arg("name"),
                   py::return_value_policy::copy);

    py::class_<pva::TotalMemory>(m, "TotalMemory")
        .def_property_readonly("includingGaps", &pva::TotalMemory::includingGaps)
        .def_property_readonly("excludingGaps", &pva::TotalMemory::excludingGaps);

    py::class_<pva::TileMemory>(m, "TileMemory")
        .def_property_readonly("total", &pva::TileMemory::total)
        .def_property_readonly("alwaysLiveBytes", &pva::TileMemory::alwaysLiveBytes)
        .def_property_readonly("notAlwaysLiveBytes", &pva::TileMemory::notAlwaysLiveBytes)
        .def_property_readonly("category", &pva::TileMemory::category,
                               py::return_value_policy::reference_internal);

    py::class_<pva::Tile>(m, "Tile")
        .def_property_readonly("number", &pva::Tile::number)
        .def_property_readonly("ipu", &pva::Tile::ipu)
        .def_property_readonly("tileOnIpu", &pva::Tile::tileOnIpu)
        .def_property_readonly("memory", &pva::Tile::memory,
                               py::return_value_policy::reference_internal)
        .def("__repr__",
             [](const pva::Tile& t) { return "<pva.Tile " + std::to_string(t.number()) + ">"; });
}

void bindTargetAndGraph(py::module_& m) {
    py::class_<pva::Version>(m, "Version")
        .def_property_readonly("string", &pva::Version::string)
        .def_property_readonly("major", &pva::Version::major)
        .def_property_readonly("minor", &pva::Version::minor)
        .def_property_readonly("point", &pva::Version::point)
        .def_property_readonly("packageHash", &pva::Version::packageHash)
        .def("__str__", &pva::Version::string);

    auto target = py::class_<pva::Target>(m, "Target");
    py::enum_<pva::Target::Type>(target, "Type")
        .value("IPU", pva::Target::Type::IPU)
        .value("IPU_MODEL", pva::Target::Type::IPU_MODEL)
        .value("Unknown", pva::Target::Type::Unknown);
    target.def_property_readonly("type", &pva::Target::type)
        .def_property_readonly("architecture", &pva::Target::architecture)
        .def_property_readonly("numIPUs", &pva::Target::numIPUs)
        .def_property_readonly("tilesPerIpu", &pva::Target::tilesPerIPU)
        .def_property_readonly("tilesPerIPU", &pva::Target::tilesPerIPU)
        .def_property_readonly("numTiles", &pva::Target::numTiles)
        .def_property_readonly("bytesPerTile", &pva::Target::bytesPerTile)
        .def_property_readonly("bytesPerIPU", &pva::Target::bytesPerIPU)
        .def_property_readonly("totalMemory", &pva::Target::totalMemory)
        .def_property_readonly("clockFrequency", &pva::Target::clockFrequency)
        .def_property_readonly("numReplicas", &pva::Target::numReplicas)
        .def_property_readonly("ipusPerReplica", &pva::Target::ipusPerReplica)
        .def_property_readonly("tilesPerReplica", &pva::Target::tilesPerReplica)
        .def_property_readonly("numWorkerContexts", &pva::Target::numWorkerContexts)
        .def_property_readonly("exchangeBytesPerCycle", &pva::Target::exchangeBytesPerCycle);

    py::class_<pva::Graph>(m, "Graph")
        .def_property_readonly("numComputeSets", &pva::Graph::numComputeSets)
        .def_property_readonly("numVertices", &pva::Graph::numVertices)
        .def_property_readonly("numVariables", &pva::Graph::numVariables)
        .def_property_readonly("numVars", &pva::Graph::numVars)
        .def_property_readonly("numVertexTypes", &pva::Graph::numVertexTypes)
        .def_property_readonly("numEdges", [](const pva::Graph&) -> std::uint64_t {
            throw pva::error("pva.Graph.numEdges: TileScope reports do not record edge counts");
        });
}

void bindVariablesAndSteps(py::module_& m) {
    py::class_<pva::DebugContext>(m, "DebugContext")
        .def_property_readonly("id", &pva::DebugContext::id)
        .def_property_readonly("name", &pva::DebugContext::name)
        .def_property_readonly("layer", &pva::DebugContext::layer)
        .def_property_readonly("debugPath", &pva::DebugContext::debugPath)
        .def_property_readonly("json", &pva::DebugContext::json)
        .def("__repr__", [](const pva::DebugContext& d) {
            return "<pva.DebugContext " + d.debugPath() + " " + d.json() + ">";
        });

    py::class_<pva::Variable>(m, "Variable")
        .def_property_readonly("id", &pva::Variable::id)
        .def_property_readonly("_id", &pva::Variable::_id)
        .def_property_readonly("name", &pva::Variable::name)
        .def_property_readonly("debugPath", &pva::Variable::debugPath)
        .def_property_readonly("size", &pva::Variable::size)
        .def_property_readonly("numElements", &pva::Variable::numElements)
        .def_property_readonly("elementType", &pva::Variable::elementType)
        .def_property_readonly("alwaysLive", &pva::Variable::alwaysLive)
        .def_property_readonly("category", &pva::Variable::category)
        .def_property_readonly("debugContexts", &pva::Variable::debugContexts);

    py::class_<pva::NotAlwaysLiveMemory>(m, "NotAlwaysLiveMemory")
        .def_property_readonly("bytes", &pva::NotAlwaysLiveMemory::bytes)
        .def_property_readonly("variables", &pva::NotAlwaysLiveMemory::variables);

    py::class_<PyProgramStep>(m, "ProgramStep")
        .def_property_readonly("index", [](const PyProgramStep& s) { return s.step.index(); })
        .def_property_readonly(
            "program",
            [](const PyProgramStep& s) { return wrapProgram(s.step.program(), s.context); })
        .def_property_readonly("notAlwaysLiveMemory",
                               [](const PyProgramStep& s) { return s.step.notAlwaysLiveMemory(); })
        .def(
            "notAlwaysLiveMemoryForTile",
            [](const PyProgramStep& s, unsigned tile) {
                return s.step.notAlwaysLiveMemoryForTile(tile);
            },
            py::arg("tile"))
        .def_property_readonly(
            "maxTileNotAlwaysLiveBytes",
            [](const PyProgramStep& s) { return s.step.maxTileNotAlwaysLiveBytes(); })
        .def_property_readonly("cycleEstimate",
                               [](const PyProgramStep& s) { return s.step.cycleEstimate(); });
}

void bindCompilation(py::module_& m) {
    py::class_<PyCompilation>(m, "Compilation")
        .def_property_readonly("target",
                               [](const PyCompilation& c) { return c.compilation.target(); })
        .def_property_readonly("graph",
                               [](const PyCompilation& c) { return c.compilation.graph(); })
        .def_property_readonly("tiles",
                               [](const PyCompilation& c) { return c.compilation.tiles(); })
        .def_property_readonly("programs",
                               [](const PyCompilation& c) {
                                   return wrapPrograms(c.compilation.programs(), c.context);
                               })
        .def_property_readonly("controlPrograms",
                               [](const PyCompilation& c) {
                                   return wrapPrograms(c.compilation.controlPrograms(), c.context);
                               })
        .def_property_readonly("functions",
                               [](const PyCompilation& c) {
                                   return wrapPrograms(c.compilation.functions(), c.context);
                               })
        .def_property_readonly("computeSets",
                               [](const PyCompilation& c) {
                                   std::vector<PyComputeSet> sets;
                                   for (const auto& cs : c.compilation.computeSets())
                                       sets.push_back(PyComputeSet{cs.id(), cs.name(),
                                                                   cs.debugPath(), cs.numVertices(),
                                                                   c.context});
                                   return sets;
                               })
        .def_property_readonly("variables",
                               [](const PyCompilation& c) { return c.compilation.variables(); })
        .def_property_readonly("debugContexts",
                               [](const PyCompilation& c) { return c.compilation.debugContexts(); })
        .def_property_readonly(
            "alwaysLiveVariables",
            [](const PyCompilation& c) { return c.compilation.alwaysLiveVariables(); })
        .def_property_readonly(
            "notAlwaysLiveVariables",
            [](const PyCompilation& c) { return c.compilation.notAlwaysLiveVariables(); })
        .def_property_readonly("livenessProgramSteps",
                               [](const PyCompilation& c) {
                                   std::vector<PyProgramStep> steps;
                                   for (auto& s : c.compilation.livenessProgramSteps())
                                       steps.push_back(PyProgramStep{std::move(s), c.context});
                                   return steps;
                               })
        .def_property_readonly("outOfMemory",
                               [](const PyCompilation& c) { return c.compilation.outOfMemory(); })
        // Beyond libpva: per-tile series as numpy arrays, one SQL query each.
        .def(
            "memoryByTile",
            [](const PyCompilation& c, bool includeGaps) {
                return toNumpy(c.context->reader->tileMemoryTotal(includeGaps));
            },
            py::arg("includeGaps") = true,
            "Total bytes of every tile (global tile order) as a numpy uint64 array.")
        .def(
            "alwaysLiveMemoryByTile",
            [](const PyCompilation& c) {
                return toNumpy(c.context->reader->alwaysLiveBytesPerTile());
            },
            "Always-live bytes of every tile as a numpy uint64 array.");

    py::class_<PyReport>(m, "Report")
        .def_property_readonly("compilation",
                               [](const PyReport& r) {
                                   return PyCompilation{r.report.compilation(), r.context};
                               })
        .def_property_readonly("execution",
                               [](const PyReport& r) {
                                   return PyExecution{r.report.execution(), r.context};
                               })
        .def_property_readonly("poplarVersion",
                               [](const PyReport& r) { return r.report.poplarVersion(); })
        .def_property_readonly("reportFilename",
                               [](const PyReport& r) { return r.report.reportFilename(); });

    m.def("openReport", &openReport, py::arg("profile"), py::arg("debugInfo") = std::string(),
          "Opens a profile.pop report read-only; raises pva.OpenFileError (a RuntimeError) naming "
          "the file when it is missing or not a readable report. debugInfo is accepted for "
          "libpva compatibility (TileScope keeps debug information in the report).");
}

} // namespace

void bindReport(py::module_& m) {
    bindTargetAndGraph(m);
    bindMemory(m);
    bindVariablesAndSteps(m);
    bindCompilation(m);
}

} // namespace tilescope::python
