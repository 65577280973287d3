// pva.openTrace: a host trace (*.pvti) as libpva's Python API shows it: processes (.pid), their
// threads (.tid) and each thread's events as a tree (.label, .timestamp and .duration in
// microseconds, .channel, .children()). The file is read once at open, in one scan of the event
// table (scanThreadEvents), into flat arrays; labels and channels become Python strings once.
// pva.Event is a plain CPython type rather than a pybind11 class: an event costs one small
// allocation and its attributes are direct slot reads, which is what makes walking ten million
// events from Python run at millions per second (pybind11's per-call dispatch and instance
// registry cost several times more than the work itself).
#include "PvaBindings.hpp"
#include "tilescope/report/HostTraceReader.hpp"
#include "tilescope/report/HostTraceScan.hpp"
#include "tilescope/report/HostTraceStatistics.hpp"
#include "tilescope/report/ReportError.hpp"

#include <algorithm>
#include <limits>

namespace tilescope::python {

namespace {

struct EventRow {
    std::int64_t startNs = 0;
    std::int64_t endNs = 0;
    std::uint32_t label = 0;   // index into TraceData::labels
    std::uint32_t channel = 0; // index into TraceData::channels
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

/// Everything a trace holds that the Python objects show, read once. Holds Python strings, so it
/// is only ever released with the GIL held (its owners are Python objects).
struct TraceData {
    std::string path;
    std::vector<ProcessData> processes;
    std::vector<ThreadData> threads;
    std::vector<py::str> labels;   // by EventRow::label; [0] is "" (unknown name)
    std::vector<py::str> channels; // by EventRow::channel; [0] is "" (unknown channel)
};
using TracePtr = std::shared_ptr<const TraceData>;

/// What keeps a trace alive for the native Event objects: a capsule owning a TracePtr.
py::capsule traceOwner(const TracePtr& trace) {
    return py::capsule(new TracePtr(trace), [](void* p) { delete static_cast<TracePtr*>(p); });
}

struct PyThread {
    TracePtr trace;
    py::object owner;
    std::uint32_t index;
};

struct PyProcess {
    TracePtr trace;
    py::object owner;
    std::uint32_t index;
};

struct PyTrace {
    TracePtr trace;
    py::object owner;
};

// --- pva.Event, a native type ------------------------------------------------------------------

struct EventObject {
    PyObject ob_base; // PyObject_HEAD
    PyObject* owner;  // capsule keeping `trace` alive
    const TraceData* trace;
    const ThreadData* thread;
    std::uint32_t index;
    const EventRow& row() const { return thread->events[index]; }
};

PyTypeObject* eventType = nullptr;

PyObject* newEvent(PyObject* owner, const TraceData* trace, const ThreadData* thread,
                   std::uint32_t index) {
    EventObject* e = PyObject_New(EventObject, eventType);
    if (!e)
        return nullptr;
    Py_INCREF(owner);
    e->owner = owner;
    e->trace = trace;
    e->thread = thread;
    e->index = index;
    return reinterpret_cast<PyObject*>(e);
}

/// A list of events of `thread`: indices [begin, end) or the listed ones.
PyObject* eventList(PyObject* owner, const TraceData* trace, const ThreadData* thread,
                    const std::uint32_t* indices, std::uint32_t begin, std::uint32_t count) {
    PyObject* list = PyList_New(count);
    if (!list)
        return nullptr;
    for (std::uint32_t i = 0; i < count; ++i) {
        PyObject* e = newEvent(owner, trace, thread, indices ? indices[i] : begin + i);
        if (!e) {
            Py_DECREF(list);
            return nullptr;
        }
        PyList_SET_ITEM(list, i, e);
    }
    return list;
}

EventObject* asEvent(PyObject* self) {
    return reinterpret_cast<EventObject*>(self);
}

void eventDealloc(PyObject* self) {
    PyTypeObject* type = Py_TYPE(self);
    Py_DECREF(asEvent(self)->owner);
    PyObject_Free(self);
    Py_DECREF(type); // instances of heap types hold their type
}

PyObject* eventLabel(PyObject* self, void*) {
    const EventObject* e = asEvent(self);
    return py::object(e->trace->labels[e->row().label]).release().ptr();
}

PyObject* eventChannel(PyObject* self, void*) {
    const EventObject* e = asEvent(self);
    return py::object(e->trace->channels[e->row().channel]).release().ptr();
}

PyObject* eventTimestamp(PyObject* self, void*) {
    return PyLong_FromLongLong(asEvent(self)->row().startNs / 1000);
}

PyObject* eventDuration(PyObject* self, void*) {
    const EventRow& r = asEvent(self)->row();
    return PyLong_FromLongLong((r.endNs - r.startNs) / 1000);
}

PyObject* eventChildren(PyObject* self, PyObject*) {
    const EventObject* e = asEvent(self);
    const EventRow& r = e->row();
    return eventList(e->owner, e->trace, e->thread, nullptr, r.childBegin,
                     r.childEnd - r.childBegin);
}

PyObject* eventRepr(PyObject* self) {
    const EventObject* e = asEvent(self);
    return PyUnicode_FromFormat("<pva.Event '%U'>", e->trace->labels[e->row().label].ptr());
}

PyGetSetDef eventGetters[] = {
    {"label", eventLabel, nullptr, "The event's name.", nullptr},
    {"channel", eventChannel, nullptr, "The trace channel the event was recorded on.", nullptr},
    {"timestamp", eventTimestamp, nullptr, "Start, in microseconds since the Unix epoch.", nullptr},
    {"duration", eventDuration, nullptr, "Duration in microseconds (0 for an instant).", nullptr},
    {nullptr, nullptr, nullptr, nullptr, nullptr},
};

PyMethodDef eventMethods[] = {
    {"children", eventChildren, METH_NOARGS, "The events nested directly inside this one."},
    {nullptr, nullptr, 0, nullptr},
};

PyType_Slot eventSlots[] = {
    {Py_tp_dealloc, reinterpret_cast<void*>(eventDealloc)},
    {Py_tp_repr, reinterpret_cast<void*>(eventRepr)},
    {Py_tp_getset, eventGetters},
    {Py_tp_methods, eventMethods},
    {Py_tp_doc, const_cast<char*>("An event of a host trace thread (from pva.openTrace).")},
    {0, nullptr},
};

PyType_Spec eventSpec = {"pva.Event", sizeof(EventObject), 0,
                         Py_TPFLAGS_DEFAULT | Py_TPFLAGS_DISALLOW_INSTANTIATION, eventSlots};

// --- reading -----------------------------------------------------------------------------------

/// Dense Python-string tables for ids: index 0 is "" for ids the file does not define.
template <class Texts>
std::unordered_map<std::int64_t, std::uint32_t> internTexts(Texts&& texts,
                                                            std::vector<py::str>& out) {
    std::unordered_map<std::int64_t, std::uint32_t> index;
    out.emplace_back("");
    for (auto& [id, text] : texts) {
        index.emplace(id, static_cast<std::uint32_t>(out.size()));
        out.emplace_back(text);
    }
    return index;
}

std::uint32_t lookup(const std::unordered_map<std::int64_t, std::uint32_t>& index,
                     std::int64_t id) {
    const auto it = index.find(id);
    return it == index.end() ? 0 : it->second;
}

/// Links one thread's events (in track order: depth, then start) into a tree: an event's parent
/// is the event of the depth above with the latest start at or before its own. Both depths are
/// in start order, so the children of one parent are consecutive: each event records its
/// children as a range.
void linkThread(const report::ThreadEventColumns& c, std::int64_t traceEndNs,
                const std::unordered_map<std::int64_t, std::uint32_t>& labels,
                const std::unordered_map<std::int64_t, std::uint32_t>& channels,
                ThreadData& thread) {
    const std::size_t n = c.size();
    if (n > std::numeric_limits<std::uint32_t>::max())
        throw pva::error("a thread has more than 2^32 events");
    thread.events.resize(n);
    // Ids repeat in runs (the same few names): remember the last lookup.
    std::int64_t lastName = std::numeric_limits<std::int64_t>::min(), lastChannel = lastName;
    std::uint32_t label = 0, channel = 0;
    std::size_t aboveBegin = 0, aboveEnd = 0; // the previous depth's range
    std::size_t levelBegin = 0;
    for (std::size_t i = 0; i < n; ++i) {
        if (i > 0 && c.depth[i] != c.depth[i - 1]) {
            // A gap in depths (a damaged file) leaves no parents for the deeper rows.
            const bool next = c.depth[i] == c.depth[i - 1] + 1;
            aboveBegin = next ? levelBegin : i;
            aboveEnd = next ? i : i;
            levelBegin = i;
        }
        EventRow& row = thread.events[i];
        row.startNs = c.startNs[i];
        row.endNs = c.kind[i] == report::EventKind::Unfinished ? traceEndNs : c.endNs[i];
        if (c.kind[i] == report::EventKind::Instant)
            row.endNs = row.startNs;
        if (c.nameId[i] != lastName) {
            lastName = c.nameId[i];
            label = lookup(labels, lastName);
        }
        if (c.channelId[i] != lastChannel) {
            lastChannel = c.channelId[i];
            channel = lookup(channels, lastChannel);
        }
        row.label = label;
        row.channel = channel;
        const auto index = static_cast<std::uint32_t>(i);
        if (c.depth[i] == 0 || aboveBegin == aboveEnd) {
            thread.roots.push_back(index);
            continue;
        }
        // The parent: last event above starting at or before this one.
        auto first = thread.events.begin() + static_cast<std::ptrdiff_t>(aboveBegin);
        auto last = thread.events.begin() + static_cast<std::ptrdiff_t>(aboveEnd);
        auto parent =
            std::upper_bound(first, last, row.startNs,
                             [](std::int64_t t, const EventRow& e) { return t < e.startNs; });
        if (parent == first) {
            thread.roots.push_back(index); // no enclosing event recorded: a root
            continue;
        }
        EventRow& p = *std::prev(parent);
        if (p.childBegin == p.childEnd)
            p.childBegin = index;
        p.childEnd = index + 1;
    }
}

PyTrace openTrace(const std::string& path) {
    try {
        report::HostTraceReader reader(path);
        auto data = std::make_shared<TraceData>();
        data->path = path;
        const auto labels = internTexts(report::hostTraceNames(reader), data->labels);
        std::vector<std::pair<std::int64_t, std::string>> channelNames;
        for (const auto& ch : reader.channels())
            channelNames.emplace_back(ch.id, ch.name);
        const auto channels = internTexts(channelNames, data->channels);
        const auto span = reader.timeSpan();
        const std::int64_t endNs = span ? span->second : 0;
        std::unordered_map<std::int64_t, std::size_t> processById;
        for (const auto& p : reader.processes()) {
            processById[p.id] = data->processes.size();
            data->processes.push_back(ProcessData{p.pid, p.name, {}});
        }
        const auto threads = reader.threads();
        std::vector<std::int64_t> threadRows;
        for (const auto& t : threads)
            threadRows.push_back(t.id);
        auto columns = report::scanThreadEvents(reader, threadRows);
        for (std::size_t i = 0; i < threads.size(); ++i) {
            ThreadData thread;
            thread.tid = threads[i].tid;
            thread.name = threads[i].name;
            linkThread(columns[i], endNs, labels, channels, thread);
            columns[i] = {}; // freed as we go
            const auto p = processById.find(threads[i].processId);
            if (p != processById.end())
                data->processes[p->second].threads.push_back(
                    static_cast<std::uint32_t>(data->threads.size()));
            data->threads.push_back(std::move(thread));
        }
        TracePtr trace = std::move(data);
        return PyTrace{trace, traceOwner(trace)};
    } catch (const report::ReportError& e) {
        throw pva::openfile_error(e.what());
    }
}

} // namespace

void bindTrace(py::module_& m) {
    eventType = reinterpret_cast<PyTypeObject*>(PyType_FromSpec(&eventSpec));
    if (!eventType)
        throw py::error_already_set();
    m.attr("Event") = py::reinterpret_steal<py::object>(reinterpret_cast<PyObject*>(eventType));
    Py_INCREF(eventType); // the module's reference above may go; newEvent needs the type

    py::class_<PyThread>(m, "Thread")
        .def_property_readonly("tid",
                               [](const PyThread& t) { return t.trace->threads[t.index].tid; })
        .def_property_readonly("name",
                               [](const PyThread& t) { return t.trace->threads[t.index].name; })
        .def_property_readonly("events", [](const PyThread& t) {
            const ThreadData& th = t.trace->threads[t.index];
            PyObject* list = eventList(t.owner.ptr(), t.trace.get(), &th, th.roots.data(), 0,
                                       static_cast<std::uint32_t>(th.roots.size()));
            if (!list)
                throw py::error_already_set();
            return py::reinterpret_steal<py::list>(list);
        });

    py::class_<PyProcess>(m, "Process")
        .def_property_readonly("pid",
                               [](const PyProcess& p) { return p.trace->processes[p.index].pid; })
        .def_property_readonly("name",
                               [](const PyProcess& p) { return p.trace->processes[p.index].name; })
        .def_property_readonly("threads", [](const PyProcess& p) {
            std::vector<PyThread> out;
            for (const auto t : p.trace->processes[p.index].threads)
                out.push_back(PyThread{p.trace, p.owner, t});
            return out;
        });

    py::class_<PyTrace>(m, "Trace")
        .def_property_readonly("filename", [](const PyTrace& t) { return t.trace->path; })
        .def_property_readonly("processes", [](const PyTrace& t) {
            std::vector<PyProcess> out;
            for (std::uint32_t i = 0; i < t.trace->processes.size(); ++i)
                out.push_back(PyProcess{t.trace, t.owner, i});
            return out;
        });

    m.def("openTrace", &openTrace, py::arg("path"),
          "Opens a host trace (*.pvti) written by libpvti; raises pva.OpenFileError (a "
          "RuntimeError) naming the file when it is missing or not a readable trace.");
}

} // namespace tilescope::python
