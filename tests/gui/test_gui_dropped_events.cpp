// The system analyser names the events a pvti tracer dropped (its writer fell behind the bound):
// "N events dropped on thread T", among the file's details and in the timeline's status line.
#include "system/HostTraceSession.hpp"
#include "tilescope/report/HostTraceWriter.hpp"

#include <QString>
#include <catch2/catch.hpp>
#include <filesystem>
#include <unistd.h>

using namespace tilescope;
using namespace tilescope::gui;
namespace fs = std::filesystem;

namespace {

fs::path traceWithDrops(const char* name, std::int64_t dropped) {
    const fs::path dir =
        fs::temp_directory_path() / ("tilescope-gui-drops-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    const fs::path out = dir / name;
    report::HostTraceWriter w(out);
    const auto process = w.addProcess(100, "app", 1'000);
    const auto main = w.addThread(process, 100, "main");
    const auto worker = w.addThread(process, 77, "worker");
    const auto channel = w.addChannel("user");
    w.addEvent(main, channel, w.intern("step"), 1'000, 2'000, 0);
    w.addEvent(worker, channel, w.intern("work"), 1'500, 1'800, 0);
    if (dropped > 0)
        w.setDroppedEvents(worker, dropped);
    w.close();
    return out;
}

} // namespace

TEST_CASE("dropped events are named with their thread in the system analyser") {
    const auto session = HostTraceSession::open(traceWithDrops("drops.pvti", 42).string());
    REQUIRE(session->dropWarnings().size() == 1);
    CHECK(session->dropWarnings()[0] == QStringLiteral("42 events dropped on thread 77 (worker)"));
    bool inDetails = false;
    for (const auto& [label, value] : session->details())
        inDetails |= label == QStringLiteral("Dropped events") &&
                     value == QStringLiteral("42 events dropped on thread 77 (worker)");
    CHECK(inDetails);
}

TEST_CASE("a trace without drops shows no drop warning") {
    const auto session = HostTraceSession::open(traceWithDrops("nodrops.pvti", 0).string());
    CHECK(session->dropWarnings().isEmpty());
}
