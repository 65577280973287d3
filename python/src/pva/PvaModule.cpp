// The `pva` Python module: Graphcore's libpva Python API over TileScope reports and host traces.
#include "PvaBindings.hpp"
#include "tilescope/report/ReportError.hpp"

namespace py = pybind11;
using namespace tilescope::python;

PYBIND11_MODULE(pva, m) {
    m.doc() = "PopVision analysis library (libpva) Python API over TileScope profile.pop reports "
              "and .pvti host traces";
    // Both derive from RuntimeError, so `except RuntimeError` catches every failure; messages
    // start with the file concerned.
    static py::exception<pva::error> error(m, "Error", PyExc_RuntimeError);
    static py::exception<pva::openfile_error> openFileError(m, "OpenFileError", error.ptr());
    py::register_exception_translator([](std::exception_ptr p) {
        try {
            if (p)
                std::rethrow_exception(p);
        } catch (const pva::openfile_error& e) {
            openFileError(e.what());
        } catch (const pva::error& e) {
            error(e.what());
        } catch (const tilescope::report::ReportError& e) {
            error(e.what());
        }
    });
    bindReport(m);
    bindProgram(m);
    bindExecution(m);
    bindTrace(m);
    bindOperations(m);
}
