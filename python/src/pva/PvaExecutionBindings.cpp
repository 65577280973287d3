// pva.Execution, Run, ExecutionStep and IpuExecution: runs in order, their steps with cycles by
// IPU and by tile (lists, as in libpva: numpy is not needed for the SDK's names). Beyond libpva,
// Run.cyclesByTile() returns a whole run's per-tile cycles as one numpy array (steps x tiles), so
// plotting every tile of every step needs no Python loop.
#include "PvaBindings.hpp"

#include <cstring>

namespace tilescope::python {

namespace {

/// The reader's record of a run, for the queries the pva face does not offer.
report::RunRecord runRecord(const PyRun& r) {
    for (const auto& run : r.context->reader->runs())
        if (run.id == r.run.id())
            return run;
    throw pva::error(r.context->reader->path() + ": run " + std::to_string(r.run.id()) +
                     " is not in the report");
}

/// Cycles of every tile in every step of the run, as a (steps, tiles) uint64 array; a step whose
/// per-tile cycles were not recorded is a row of zeros.
py::array_t<std::uint64_t> runCyclesByTile(const PyRun& r) {
    const auto record = runRecord(r);
    const std::size_t tiles =
        r.context->reader->target().numIpus * r.context->reader->target().tilesPerIpu;
    const std::size_t steps = record.numSteps;
    py::array_t<std::uint64_t> array({steps, tiles});
    std::uint64_t* out = array.mutable_data();
    std::memset(out, 0, steps * tiles * sizeof(std::uint64_t));
    constexpr std::int64_t kPage = 4096;
    for (std::size_t first = 0; first < steps; first += kPage) {
        const auto rows = r.context->reader->runStepTileCycles(
            record, static_cast<std::int64_t>(first), kPage, 0, static_cast<std::uint32_t>(tiles));
        for (std::size_t i = 0; i < rows.size() && first + i < steps; ++i)
            std::memcpy(out + (first + i) * tiles, rows[i].data(),
                        std::min(rows[i].size(), tiles) * sizeof(std::uint64_t));
    }
    return array;
}

/// A read-only sequence of executed steps: len(), indexing (negative too) and iteration, as the
/// list libpva returns, without building a Python object per step up front.
struct StepList {
    StepTablePtr table;
    py::object owner; // capsule of `table`, held by every step object
};

StepList stepList(std::vector<pva::ExecutionStep> steps, const ContextPtr& context) {
    auto table = std::make_shared<const StepTable>(StepTable{std::move(steps), context});
    return StepList{table, stepTableOwner(table)};
}

py::object stepAt(const StepList& list, py::ssize_t index) {
    const auto size = static_cast<py::ssize_t>(list.table->steps.size());
    if (index < 0)
        index += size;
    if (index < 0 || index >= size)
        throw py::index_error("step index out of range");
    return stepObject(list.owner, list.table.get(), static_cast<std::size_t>(index));
}

} // namespace

void bindExecution(py::module_& m) {
    py::class_<pva::IpuExecution>(m, "IpuExecution")
        .def_property_readonly("ipu", &pva::IpuExecution::ipu)
        .def_property_readonly("cycles", &pva::IpuExecution::cycles)
        .def_property_readonly("activeTiles", &pva::IpuExecution::activeTiles)
        .def_property_readonly("activeTileBalance", &pva::IpuExecution::activeTileBalance)
        .def_property_readonly("cyclesByTile", &pva::IpuExecution::cyclesByTile)
        .def_property_readonly("activeCycles", [](const pva::IpuExecution&) -> py::object {
            throw pva::error("pva.IpuExecution.activeCycles is not supported: TileScope records "
                             "the cycles of each tile in a step (cyclesByTile), not spans of "
                             "active cycles");
        });

    bindStepObjects(m);
    py::class_<StepList>(m, "ExecutionStepList")
        .def("__len__", [](const StepList& l) { return l.table->steps.size(); })
        .def("__getitem__", &stepAt)
        .def("__getitem__",
             [](const StepList& l, const py::slice& slice) {
                 std::size_t start = 0, stop = 0, step = 0, length = 0;
                 if (!slice.compute(l.table->steps.size(), &start, &stop, &step, &length))
                     throw py::error_already_set();
                 py::list out;
                 for (std::size_t i = 0; i < length; ++i, start += step)
                     out.append(stepObject(l.owner, l.table.get(), start));
                 return out;
             })
        .def("__iter__", [](const StepList& l) { return stepIterator(l.owner, l.table.get()); });

    py::class_<pva::Microseconds>(m, "Microseconds")
        .def_property_readonly("start", &pva::Microseconds::start)
        .def_property_readonly("end", &pva::Microseconds::end);

    py::class_<PyRun>(m, "Run")
        .def_property_readonly("id", [](const PyRun& r) { return r.run.id(); })
        .def_property_readonly("programIndex", [](const PyRun& r) { return r.run.programIndex(); })
        .def_property_readonly(
            "program", [](const PyRun& r) { return wrapProgram(r.run.program(), r.context); })
        .def_property_readonly("steps",
                               [](const PyRun& r) { return stepList(r.run.steps(), r.context); })
        .def_property_readonly("numSteps", [](const PyRun& r) { return r.run.numSteps(); })
        .def_property_readonly("cycles", [](const PyRun& r) { return r.run.cycles(); })
        .def_property_readonly("microseconds", [](const PyRun& r) { return r.run.microseconds(); })
        .def_property_readonly("complete", [](const PyRun& r) { return r.run.complete(); })
        .def("cyclesByTile", &runCyclesByTile,
             "Cycles of every tile in every step as a numpy uint64 array of shape (steps, tiles).");

    // Lightweight profiling: pva.Block, as libpva's blocks(tile) yields them.
    py::class_<PyBlock>(m, "Block")
        .def_property_readonly("cyclesFrom", [](const PyBlock& b) { return b.block.cyclesFrom(); })
        .def_property_readonly("cyclesTo", [](const PyBlock& b) { return b.block.cyclesTo(); })
        .def_property_readonly("tile", [](const PyBlock& b) { return b.block.tile(); })
        .def_property_readonly("program",
                               [](const PyBlock& b) {
                                   return PyProgram{b.block.program(), b.context};
                               })
        .def_property_readonly("isCommon", [](const PyBlock& b) { return b.block.isCommon(); })
        .def_property_readonly("isStreamCopy",
                               [](const PyBlock& b) { return b.block.isStreamCopy(); })
        .def_property_readonly("isBlockFlush",
                               [](const PyBlock& b) { return b.block.isBlockFlush(); })
        .def_property_readonly("isOverflow", [](const PyBlock& b) { return b.block.isOverflow(); })
        .def_property_readonly("droppedRecords",
                               [](const PyBlock& b) { return b.block.droppedRecords(); })
        .def_property_readonly("runIndex", [](const PyBlock& b) { return b.block.runIndex(); });

    py::class_<PyExecution>(m, "Execution")
        .def(
            "blocks",
            [](const PyExecution& e, unsigned tile) {
                std::vector<PyBlock> out;
                for (auto& b : e.execution.blocks(tile))
                    out.push_back(PyBlock{std::move(b), e.context});
                return out;
            },
            py::arg("tile"), "Every block recorded on the tile, by first cycle.")
        .def_property_readonly("blockTiles",
                               [](const PyExecution& e) { return e.execution.blockTiles(); })
        .def_property_readonly("runs",
                               [](const PyExecution& e) {
                                   std::vector<PyRun> runs;
                                   for (auto& r : e.execution.runs())
                                       runs.push_back(PyRun{std::move(r), e.context});
                                   return runs;
                               })
        .def_property_readonly(
            "steps", [](const PyExecution& e) { return stepList(e.execution.steps(), e.context); })
        .def_property_readonly("totalCycles", [](const PyExecution& e) {
            std::uint64_t total = 0;
            for (const auto& r : e.execution.runs())
                total += r.cycles();
            return total;
        });
}

} // namespace tilescope::python
