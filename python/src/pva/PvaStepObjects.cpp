// pva.ExecutionStep and the iterator over a run's steps as plain CPython types. A report of a
// million steps is walked from Python at millions of steps per second only if a step costs one
// small allocation and its numbers are direct slot reads; pybind11's per-call dispatch and
// instance registry cost several times that. The attributes that read more of the report
// (program, cyclesByTile, ipus) go through pybind11 functions, which convert their values and
// translate C++ exceptions as the rest of the module does.
#include "PvaBindings.hpp"

namespace tilescope::python {

namespace {

struct StepObject {
    PyObject ob_base; // PyObject_HEAD
    PyObject* owner;  // capsule keeping `table` alive
    const StepTable* table;
    const pva::ExecutionStep* step;
};

struct StepIterObject {
    PyObject ob_base; // PyObject_HEAD
    PyObject* owner;
    const StepTable* table;
    std::size_t next;
};

PyTypeObject* stepType = nullptr;
PyTypeObject* stepIterType = nullptr;
// pybind11 functions of one StepObject argument, for the attributes that read the report.
PyObject* stepProgram = nullptr;
PyObject* stepCyclesByTile = nullptr;
PyObject* stepIpus = nullptr;

StepObject* asStep(PyObject* self) {
    return reinterpret_cast<StepObject*>(self);
}

PyObject* newStep(PyObject* owner, const StepTable* table, std::size_t index) {
    StepObject* s = PyObject_New(StepObject, stepType);
    if (!s)
        return nullptr;
    Py_INCREF(owner);
    s->owner = owner;
    s->table = table;
    s->step = &table->steps[index];
    return reinterpret_cast<PyObject*>(s);
}

template <class Object> void dealloc(PyObject* self) {
    PyTypeObject* type = Py_TYPE(self);
    Py_DECREF(reinterpret_cast<Object*>(self)->owner);
    PyObject_Free(self);
    Py_DECREF(type); // instances of heap types hold their type
}

PyObject* unsignedValue(std::uint64_t v) {
    return PyLong_FromUnsignedLongLong(v);
}

PyObject* getProgramStepIndex(PyObject* self, void*) {
    return PyLong_FromLongLong(asStep(self)->step->programStepIndex());
}
PyObject* getCyclesFrom(PyObject* self, void*) {
    return unsignedValue(asStep(self)->step->cyclesFrom());
}
PyObject* getCyclesTo(PyObject* self, void*) {
    return unsignedValue(asStep(self)->step->cyclesTo());
}
PyObject* getCycles(PyObject* self, void*) {
    return unsignedValue(asStep(self)->step->cycles());
}
PyObject* getActiveTiles(PyObject* self, void*) {
    return PyLong_FromUnsignedLong(asStep(self)->step->activeTiles());
}
PyObject* getActiveTileBalance(PyObject* self, void*) {
    return PyFloat_FromDouble(asStep(self)->step->activeTileBalance());
}
PyObject* getProgram(PyObject* self, void*) {
    return PyObject_CallOneArg(stepProgram, self);
}
PyObject* getCyclesByTile(PyObject* self, void*) {
    return PyObject_CallOneArg(stepCyclesByTile, self);
}
PyObject* getIpus(PyObject* self, void*) {
    return PyObject_CallOneArg(stepIpus, self);
}

PyGetSetDef stepGetters[] = {
    {"program", getProgram, nullptr, "The program the step executed.", nullptr},
    {"programStepIndex", getProgramStepIndex, nullptr, "Index of the program step.", nullptr},
    {"cyclesFrom", getCyclesFrom, nullptr, "First cycle, counted from the start of the run.",
     nullptr},
    {"cyclesTo", getCyclesTo, nullptr, "Cycle after the last one.", nullptr},
    {"cycles", getCycles, nullptr, "Cycles the step took.", nullptr},
    {"activeTiles", getActiveTiles, nullptr, "Tiles that did work in the step.", nullptr},
    {"activeTileBalance", getActiveTileBalance, nullptr, "Balance of work over active tiles.",
     nullptr},
    {"cyclesByTile", getCyclesByTile, nullptr, "Cycles of every tile (a list).", nullptr},
    {"ipus", getIpus, nullptr, "The step on each IPU.", nullptr},
    {nullptr, nullptr, nullptr, nullptr, nullptr},
};

PyType_Slot stepSlots[] = {
    {Py_tp_dealloc, reinterpret_cast<void*>(dealloc<StepObject>)},
    {Py_tp_getset, stepGetters},
    {Py_tp_doc, const_cast<char*>("One executed step of a run (from Run.steps).")},
    {0, nullptr},
};

PyType_Spec stepSpec = {"pva.ExecutionStep", sizeof(StepObject), 0,
                        Py_TPFLAGS_DEFAULT | Py_TPFLAGS_DISALLOW_INSTANTIATION, stepSlots};

PyObject* iterSelf(PyObject* self) {
    Py_INCREF(self);
    return self;
}

PyObject* iterNext(PyObject* self) {
    auto* it = reinterpret_cast<StepIterObject*>(self);
    if (it->next >= it->table->steps.size())
        return nullptr; // StopIteration, without an exception object
    return newStep(it->owner, it->table, it->next++);
}

PyType_Slot iterSlots[] = {
    {Py_tp_dealloc, reinterpret_cast<void*>(dealloc<StepIterObject>)},
    {Py_tp_iter, reinterpret_cast<void*>(iterSelf)},
    {Py_tp_iternext, reinterpret_cast<void*>(iterNext)},
    {0, nullptr},
};

PyType_Spec iterSpec = {"pva._StepIterator", sizeof(StepIterObject), 0,
                        Py_TPFLAGS_DEFAULT | Py_TPFLAGS_DISALLOW_INSTANTIATION, iterSlots};

PyTypeObject* makeType(PyType_Spec& spec) {
    auto* type = reinterpret_cast<PyTypeObject*>(PyType_FromSpec(&spec));
    if (!type)
        throw py::error_already_set();
    return type; // kept for the module's lifetime
}

/// The step behind a StepObject argument of the pybind11 helpers.
const pva::ExecutionStep& stepOf(py::handle h, const StepTable** table) {
    if (!h || Py_TYPE(h.ptr()) != stepType)
        throw py::type_error("expected a pva.ExecutionStep");
    *table = asStep(h.ptr())->table;
    return *asStep(h.ptr())->step;
}

} // namespace

py::capsule stepTableOwner(const StepTablePtr& table) {
    return py::capsule(new StepTablePtr(table),
                       [](void* p) { delete static_cast<StepTablePtr*>(p); });
}

py::object stepObject(const py::object& owner, const StepTable* table, std::size_t index) {
    PyObject* s = newStep(owner.ptr(), table, index);
    if (!s)
        throw py::error_already_set();
    return py::reinterpret_steal<py::object>(s);
}

py::object stepIterator(const py::object& owner, const StepTable* table) {
    StepIterObject* it = PyObject_New(StepIterObject, stepIterType);
    if (!it)
        throw py::error_already_set();
    Py_INCREF(owner.ptr());
    it->owner = owner.ptr();
    it->table = table;
    it->next = 0;
    return py::reinterpret_steal<py::object>(reinterpret_cast<PyObject*>(it));
}

void bindStepObjects(py::module_& m) {
    stepType = makeType(stepSpec);
    stepIterType = makeType(iterSpec);
    m.attr("ExecutionStep") =
        py::reinterpret_borrow<py::object>(reinterpret_cast<PyObject*>(stepType));
    stepProgram = py::cpp_function([](py::handle h) {
                      const StepTable* table = nullptr;
                      const auto& step = stepOf(h, &table);
                      return wrapProgram(step.program(), table->context);
                  })
                      .release()
                      .ptr();
    stepCyclesByTile = py::cpp_function([](py::handle h) {
                           const StepTable* table = nullptr;
                           return stepOf(h, &table).cyclesByTile();
                       })
                           .release()
                           .ptr();
    stepIpus = py::cpp_function([](py::handle h) {
                   const StepTable* table = nullptr;
                   return stepOf(h, &table).ipus();
               })
                   .release()
                   .ptr();
}

} // namespace tilescope::python
