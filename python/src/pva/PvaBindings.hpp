#pragma once
// Shared pieces of the `pva` Python module. The C++ pva face's objects are bound as they are where
// they carry all their data (Target, Tile, Variable, ...); the objects that lead to more data
// (Report, Compilation, Execution, Run, steps, Program) are wrapped together with a
// ReportContext, an open ProfileReader on the same file, which serves what the Python API has
// beyond the C++ face: a program's compute set and vertices (for the visitor) and the per-tile
// series as numpy arrays.

#include "pva/pva.hpp"
#include "tilescope/report/ProfileReader.hpp"

#include <memory>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <unordered_map>
#include <vector>

namespace tilescope::python {

namespace py = pybind11;

/// The report's second handle: the reader behind the Python-only data, plus what it caches.
struct ReportContext {
    explicit ReportContext(const std::string& path)
        : reader(std::make_shared<report::ProfileReader>(path)) {}
    std::shared_ptr<report::ProfileReader> reader;
    /// Vertex types by id, read on first use.
    const std::unordered_map<std::int64_t, report::VertexTypeRecord>& vertexTypes();

private:
    bool vertexTypesRead_ = false;
    std::unordered_map<std::int64_t, report::VertexTypeRecord> vertexTypes_;
};
using ContextPtr = std::shared_ptr<ReportContext>;

/// A vertex type as libpva's Python API shows it: `size` is the state bytes of one instance.
struct PyVertexType {
    std::string name;
    std::uint64_t size = 0;
    std::uint64_t codeSize = 0;
};

/// The instances of one vertex type in a compute set.
struct PyVertex {
    PyVertexType type;
    std::uint64_t count = 0;
    std::vector<std::uint64_t> countByTile;
};

/// pva.ComputeSet, from Compilation.computeSets or an OnTileExecute program's `computeset`.
struct PyComputeSet {
    std::int64_t id = 0;
    std::string name;
    std::string debugPath;
    std::uint64_t numVertices = 0;
    ContextPtr context;
};

struct PyProgram {
    std::shared_ptr<pva::Program> program;
    ContextPtr context;
};

struct PyProgramStep {
    pva::ProgramStep step;
    ContextPtr context;
};

/// Executed steps read in one go; Python sees them through StepList and PyExecutionStep views,
/// so a million steps cost one C++ vector, and a Python object only for the step in hand.
struct StepTable {
    std::vector<pva::ExecutionStep> steps;
    ContextPtr context;
};
using StepTablePtr = std::shared_ptr<const StepTable>;

/// pva.ExecutionStep objects and the steps iterator are native CPython types (PvaStepObjects.cpp);
/// they keep their table alive through an owner capsule from stepTableOwner().
py::capsule stepTableOwner(const StepTablePtr& table);
py::object stepObject(const py::object& owner, const StepTable* table, std::size_t index);
py::object stepIterator(const py::object& owner, const StepTable* table);
void bindStepObjects(py::module_& m);

struct PyRun {
    pva::Run run;
    ContextPtr context;
};

struct PyCompilation {
    pva::Compilation compilation;
    ContextPtr context;
};

struct PyExecution {
    pva::Execution execution;
    ContextPtr context;
};

struct PyBlock {
    pva::Block block;
    ContextPtr context;
};

struct PyReport {
    pva::Report report;
    ContextPtr context;
};

/// Programs in Python, each with the report's context.
std::vector<PyProgram> wrapPrograms(const std::vector<std::shared_ptr<pva::Program>>& programs,
                                    const ContextPtr& context);
/// A program in Python, or None for a null one.
py::object wrapProgram(const std::shared_ptr<pva::Program>& program, const ContextPtr& context);

/// A numpy array holding a copy of `values`.
py::array_t<std::uint64_t> toNumpy(const std::vector<std::uint64_t>& values);

void bindReport(py::module_& m);
void bindProgram(py::module_& m);
void bindExecution(py::module_& m);
void bindTrace(py::module_& m);
void bindOperations(py::module_& m);

} // namespace tilescope::python
