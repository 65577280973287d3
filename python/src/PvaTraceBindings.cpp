// pva.openTrace: a host trace (*.pvti) as libpva's Python API shows it: processes (.pid), their
// threads (.tid) and each thread's events as a tree (.label, .timestamp and .duration in
// microseconds, .channel, .children()). The file is read once at open, every track of every
// thread in one pass per (thread, depth), into flat arrays; Event objects are small views into
// them, so iterating does not query SQLite again.
#include "PvaBindings.hpp"
#include "tilescope/report/HostTraceReader.hpp"
#include "tilescope/report/HostTraceStatistics.hpp"
#include "tilescope/report/ReportError.hpp"

#include <algorithm>
#include <limits>

namespace tilescope::python {

namespace {

struct EventRow {
    std::int64_t startNs = 0;
    std::int64_t endNs = 0;
    std::int64_t nameId = 0;
    std::int64_t channelId = 0;
    /// Children are contiguous in the thread's event array (the next depth, in start order).
    std::uint32_t childBegin = 0, childEnd = 0;
};

struct ThreadData {
    std::int64_t tid = 0;
    std::string name;
    std::vector<EventRow> events;
    std::vector<std::uint32_t> roots;
};

struct ProcessData {
    std::int64_t pid = 0;
    std::string name;
    std::vector<std::uint32_t> threads;
};

/// Everything a trace holds that the Python objects show, read once.
struct TraceData {
    std::string path;
    std::vector<ProcessData> processes;
    std::vector<ThreadData> threads;
    std::unordered_map<std::int64_t, std::string> names;
    std::unordered_map<std::int64_t, std::string> channels;
};
using TracePtr = std::shared_ptr<const TraceData>;

struct PyEvent {
    TracePtr trace;
    std::uint32_t thread;
    std::uint32_t index;
    const EventRow& row() const { return trace->threads[thread].events[index]; }
};

struct PyThread {
    TracePtr trace;
    std::uint32_t index;
};

struct PyProcess {
    TracePtr trace;
    std::uint32_t index;
};

struct PyTrace {
    TracePtr trace;
};

/// Reads one thread's events, depth by depth, and links each to its parent: the event of the
/// depth above with the latest start at or before its own. Both depths are in start order, so
/// the children of one parent are consecutive: each event records its children as a range.
void readThread(const report::HostTraceReader& reader, std::int64_t threadId, std::int64_t endNs,
                ThreadData& thread) {
    constexpr std::int64_t kAll = std::numeric_limits<std::int64_t>::max();
    const std::int32_t depths = reader.maxDepth(threadId);
    std::vector<std::uint32_t> above; // indices of the previous depth, in start order
    for (std::int32_t depth = 0; depth <= depths; ++depth) {
        std::vector<std::uint32_t> level;
        for (const auto& e :
             reader.events(threadId, depth, std::numeric_limits<std::int64_t>::min(), kAll, kAll)) {
            EventRow row;
            row.startNs = e.startNs;
            row.endNs = e.kind == report::EventKind::Instant ? e.startNs : e.endNs.value_or(endNs);
            row.nameId = e.nameId;
            row.channelId = e.channelId;
            const auto index = static_cast<std::uint32_t>(thread.events.size());
            thread.events.push_back(std::move(row));
            level.push_back(index);
            if (depth == 0) {
                thread.roots.push_back(index);
                continue;
            }
            auto parent = std::upper_bound(
                above.begin(), above.end(), e.startNs,
                [&](std::int64_t t, std::uint32_t i) { return t < thread.events[i].startNs; });
            if (parent == above.begin()) {
                thread.roots.push_back(index); // no enclosing event recorded: a root
                continue;
            }
            EventRow& p = thread.events[*std::prev(parent)];
            if (p.childBegin == p.childEnd)
                p.childBegin = index;
            p.childEnd = index + 1;
        }
        above = std::move(level);
    }
}

PyTrace openTrace(const std::string& path) {
    try {
        report::HostTraceReader reader(path);
        auto data = std::make_shared<TraceData>();
        data->path = path;
        for (auto& [id, text] : report::hostTraceNames(reader))
            data->names.emplace(id, std::move(text));
        for (const auto& c : reader.channels())
            data->channels.emplace(c.id, c.name);
        const auto span = reader.timeSpan();
        const std::int64_t endNs = span ? span->second : 0;
        std::unordered_map<std::int64_t, std::size_t> processById;
        for (const auto& p : reader.processes()) {
            processById[p.id] = data->processes.size();
            data->processes.push_back(ProcessData{p.pid, p.name, {}});
        }
        for (const auto& t : reader.threads()) {
            ThreadData thread;
            thread.tid = t.tid;
            thread.name = t.name;
            readThread(reader, t.id, endNs, thread);
            const auto p = processById.find(t.processId);
            if (p != processById.end())
                data->processes[p->second].threads.push_back(
                    static_cast<std::uint32_t>(data->threads.size()));
            data->threads.push_back(std::move(thread));
        }
        return PyTrace{data};
    } catch (const report::ReportError& e) {
        throw pva::openfile_error(e.what());
    }
}

std::vector<PyEvent> childEvents(const TracePtr& trace, std::uint32_t thread, const EventRow& row) {
    std::vector<PyEvent> out;
    out.reserve(row.childEnd - row.childBegin);
    for (std::uint32_t i = row.childBegin; i < row.childEnd; ++i)
        out.push_back(PyEvent{trace, thread, i});
    return out;
}

std::vector<PyEvent> events(const TracePtr& trace, std::uint32_t thread,
                            const std::vector<std::uint32_t>& indices) {
    std::vector<PyEvent> out;
    out.reserve(indices.size());
    for (const auto i : indices)
        out.push_back(PyEvent{trace, thread, i});
    return out;
}

std::string lookup(const std::unordered_map<std::int64_t, std::string>& map, std::int64_t id) {
    const auto it = map.find(id);
    return it == map.end() ? std::string() : it->second;
}

} // namespace

void bindTrace(py::module_& m) {
    py::class_<PyEvent>(m, "Event")
        .def_property_readonly(
            "label", [](const PyEvent& e) { return lookup(e.trace->names, e.row().nameId); })
        .def_property_readonly(
            "channel",
            [](const PyEvent& e) { return lookup(e.trace->channels, e.row().channelId); })
        .def_property_readonly("timestamp", [](const PyEvent& e) { return e.row().startNs / 1000; })
        .def_property_readonly(
            "duration", [](const PyEvent& e) { return (e.row().endNs - e.row().startNs) / 1000; })
        .def("children", [](const PyEvent& e) { return childEvents(e.trace, e.thread, e.row()); })
        .def("__repr__", [](const PyEvent& e) {
            return "<pva.Event '" + lookup(e.trace->names, e.row().nameId) + "'>";
        });

    py::class_<PyThread>(m, "Thread")
        .def_property_readonly("tid",
                               [](const PyThread& t) { return t.trace->threads[t.index].tid; })
        .def_property_readonly("name",
                               [](const PyThread& t) { return t.trace->threads[t.index].name; })
        .def_property_readonly("events", [](const PyThread& t) {
            return events(t.trace, t.index, t.trace->threads[t.index].roots);
        });

    py::class_<PyProcess>(m, "Process")
        .def_property_readonly("pid",
                               [](const PyProcess& p) { return p.trace->processes[p.index].pid; })
        .def_property_readonly("name",
                               [](const PyProcess& p) { return p.trace->processes[p.index].name; })
        .def_property_readonly("threads", [](const PyProcess& p) {
            std::vector<PyThread> out;
            for (const auto t : p.trace->processes[p.index].threads)
                out.push_back(PyThread{p.trace, t});
            return out;
        });

    py::class_<PyTrace>(m, "Trace")
        .def_property_readonly("filename", [](const PyTrace& t) { return t.trace->path; })
        .def_property_readonly("processes", [](const PyTrace& t) {
            std::vector<PyProcess> out;
            for (std::uint32_t i = 0; i < t.trace->processes.size(); ++i)
                out.push_back(PyProcess{t.trace, i});
            return out;
        });

    m.def("openTrace", &openTrace, py::arg("path"),
          "Opens a host trace (*.pvti) written by libpvti; raises pva.OpenFileError (a "
          "RuntimeError) naming the file when it is missing or not a readable trace.");
}

} // namespace tilescope::python
