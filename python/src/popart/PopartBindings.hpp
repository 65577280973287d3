#pragma once
// Shared parts of the `popart_core` extension (the native half of `import popart`): the
// numpy <-> popart::DataType mapping and the functions that add each group of bindings.
#include <popart/names.hpp>
#include <popart/tensorinfo.hpp>
#include <popart/voiddata.hpp>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <string>

namespace tilescope::python::popart_face {

/// The popart type of a numpy array's element type; popart::error naming the dtype when PopART
/// has no such type.
popart::DataType dataTypeOf(const pybind11::dtype& dtype);
/// The numpy dtype holding elements of `type` (numpy's names: "float32", "int32", ...).
pybind11::dtype numpyDtypeOf(popart::DataType type);
/// numpy's name of `type`'s element type ("float32"...), as TensorInfo.data_type_lcase gives.
std::string numpyNameOf(popart::DataType type);
/// `array` as C-contiguous (a copy when it is not).
pybind11::array contiguous(const pybind11::array& array);
/// A view of a contiguous array as popart data (the array must outlive the view).
popart::ConstVoidData constVoidData(const pybind11::array& array);
/// An int, float, bool or list of ints from Python; throws popart::error for other values.
popart::Shape shapeOf(const pybind11::handle& shape);

void bindTypes(pybind11::module_& m);    // TensorInfo, DataFlow, options, devices, optimizers
void bindBuilder(pybind11::module_& m);  // _BuilderCore and the op sets
void bindSessions(pybind11::module_& m); // sessions, PyStepIO, PyWeightsIO

} // namespace tilescope::python::popart_face
