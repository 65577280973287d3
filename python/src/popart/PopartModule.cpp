// The `popart_core` extension module: the native half of `import popart` (the `popart` package's
// Python files wrap it as PopART's own package does), and PopART's exceptions as Python types.
#include "PopartBindings.hpp"

#include <popart/error.hpp>
#include <poplar/exceptions.hpp>

namespace py = pybind11;

namespace tilescope::python::popart_face {

namespace {

struct DtypeName {
    popart::DataType type;
    const char* numpy;
};

// numpy's names of the element types PopART moves between host and device.
constexpr DtypeName kDtypes[] = {
    {popart::DataType::FLOAT, "float32"},  {popart::DataType::FLOAT16, "float16"},
    {popart::DataType::DOUBLE, "float64"}, {popart::DataType::INT8, "int8"},
    {popart::DataType::UINT8, "uint8"},    {popart::DataType::INT16, "int16"},
    {popart::DataType::UINT16, "uint16"},  {popart::DataType::INT32, "int32"},
    {popart::DataType::UINT32, "uint32"},  {popart::DataType::INT64, "int64"},
    {popart::DataType::UINT64, "uint64"},  {popart::DataType::BOOL, "bool"},
};

} // namespace

popart::DataType dataTypeOf(const py::dtype& dtype) {
    for (const DtypeName& d : kDtypes)
        if (py::detail::npy_api::get().PyArray_EquivTypes_(dtype.ptr(), py::dtype(d.numpy).ptr()))
            return d.type;
    throw popart::error("numpy dtype '" + py::str(py::handle(dtype)).cast<std::string>() +
                        "' has no PopART element type");
}

std::string numpyNameOf(popart::DataType type) {
    for (const DtypeName& d : kDtypes)
        if (d.type == type)
            return d.numpy;
    throw popart::error("PopART type " + popart::getDataTypeString(type) +
                        " has no numpy element type");
}

py::dtype numpyDtypeOf(popart::DataType type) {
    return py::dtype(numpyNameOf(type));
}

py::array contiguous(const py::array& array) {
    return py::array::ensure(array, py::array::c_style);
}

popart::ConstVoidData constVoidData(const py::array& array) {
    if (!(array.flags() & py::array::c_style))
        throw popart::error("internal: constVoidData needs a C-contiguous array");
    popart::Shape shape(array.shape(), array.shape() + array.ndim());
    return popart::ConstVoidData(array.data(),
                                 popart::TensorInfo(dataTypeOf(array.dtype()), shape));
}

popart::Shape shapeOf(const py::handle& shape) {
    if (py::isinstance<py::int_>(shape))
        return {shape.cast<int64_t>()};
    try {
        return shape.cast<popart::Shape>();
    } catch (const py::cast_error&) {
        throw popart::error("a shape must be a list of ints, not '" +
                            py::repr(shape).cast<std::string>() + "'");
    }
}

} // namespace tilescope::python::popart_face

using namespace tilescope::python::popart_face;

PYBIND11_MODULE(popart_core, m) {
    m.doc() = "PopART's Python API (native part) over TileScope's popart library: ONNX models "
              "compiled and run on simulated IPUs";
    // PopART's Python exception names. popart_exception is the base of the others, so
    // `except popart.popart_exception` catches every PopART failure; all are RuntimeErrors.
    static py::exception<popart::error> popartException(m, "popart_exception", PyExc_RuntimeError);
    static py::exception<popart::internal_error> internalException(m, "popart_internal_exception",
                                                                   popartException.ptr());
    static py::exception<poplar::poplar_error> poplarException(m, "poplar_exception",
                                                               PyExc_RuntimeError);
    py::register_exception_translator([](std::exception_ptr p) {
        try {
            if (p)
                std::rethrow_exception(p);
        } catch (const popart::memory_allocation_err& e) {
            // popart.OutOfMemoryException (defined in the package, as PopART does) carries the
            // summary and the profile's path.
            py::object type = py::module_::import("popart").attr("OutOfMemoryException");
            py::object instance = type(e.what(), e.getSummaryReport(), e.getProfilePath());
            PyErr_SetObject(type.ptr(), instance.ptr());
        } catch (const popart::internal_error& e) {
            internalException(e.what());
        } catch (const popart::error& e) {
            popartException(e.what());
        } catch (const poplar::poplar_error& e) {
            poplarException(e.what());
        }
    });
    bindTypes(m);
    bindBuilder(m);
    bindSessions(m);
}
