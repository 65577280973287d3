// A C++ library with pvti tracepoints, loaded by a Python test with ctypes: its events must land in
// the same trace file as the Python tracepoints around the call, nested by time on one clock.
#include <pvti/pvti.hpp>

static pvti::TraceChannel channel = {"cpp"};

extern "C" void tilescope_test_cpp_work() {
    pvti::Tracepoint tracepoint(&channel, "cpp work");
    pvti::Tracepoint::event(&channel, "cpp instant");
}
