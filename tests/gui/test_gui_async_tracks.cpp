// The system analyser's models on an imported Chrome trace with async events and flows
// (tests/data/chrome/async-and-flows.json): async tracks are rows under their process with one
// row per depth and their slices as boxes; flow arrows are found from either end's thread row;
// the file's details list what the import repaired.
#include "system/HostTraceSession.hpp"
#include "system/TimelineModel.hpp"
#include "tilescope/report/ChromeTrace.hpp"

#include <QString>
#include <catch2/catch.hpp>
#include <filesystem>
#include <unistd.h>

using namespace tilescope;
using namespace tilescope::gui;
namespace fs = std::filesystem;

namespace {

std::shared_ptr<HostTraceSession> importedSession() {
    const fs::path dir =
        fs::temp_directory_path() / ("tilescope-gui-async-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    const fs::path out = dir / "async.pvti";
    fs::remove(out);
    report::importChromeTrace(fs::path(TILESCOPE_TEST_DATA) / "chrome" / "async-and-flows.json",
                              out);
    return HostTraceSession::open(out.string());
}

int rowLabelled(const TimelineModel& m, TimelineModel::RowKind kind, const QString& prefix,
                int parent = -2) {
    for (int i = 0; i < int(m.rows().size()); ++i) {
        const auto& r = m.rows()[std::size_t(i)];
        if (r.kind == kind && r.label.startsWith(prefix) && (parent == -2 || r.parent == parent))
            return i;
    }
    return -1;
}

} // namespace

TEST_CASE("async tracks are timeline rows under their process, one per depth") {
    const auto session = importedSession();
    REQUIRE(session->asyncTracks().size() == 3);
    TimelineModel model({session});
    using Kind = TimelineModel::RowKind;
    const int process = rowLabelled(model, Kind::Process, "server");
    REQUIRE(process >= 0);
    const int request = rowLabelled(model, Kind::Async, "request (async net 0x1)");
    REQUIRE(request >= 0);
    CHECK(model.rows()[std::size_t(request)].parent == process);
    const int depth0 = rowLabelled(model, Kind::AsyncTrack, "depth 0", request);
    const int depth1 = rowLabelled(model, Kind::AsyncTrack, "depth 1", request);
    REQUIRE(depth0 >= 0);
    REQUIRE(depth1 >= 0);
    CHECK(rowLabelled(model, Kind::AsyncTrack, "depth 2", request) < 0);
    CHECK(TimelineModel::isTrack(Kind::AsyncTrack));

    const auto w = TimelineModel::fetchWindow(model.files(), model.rows(), model.beginNs(),
                                              model.endNs(), 1000, {depth0, depth1});
    REQUIRE(w.tracks.count(depth0));
    REQUIRE(w.tracks.at(depth0).size() == 1);
    const auto& slice = w.tracks.at(depth0)[0];
    CHECK(slice.startNs == 10'000);
    CHECK(slice.endNs == 20'000);
    CHECK(model.eventName(depth0, slice.nameId) == QStringLiteral("request"));
    REQUIRE(w.tracks.at(depth1).size() == 2); // headers (instant), read
    CHECK(w.tracks.at(depth1)[0].kind == report::EventKind::Instant);

    const int never = rowLabelled(model, Kind::Async, "never");
    REQUIRE(never >= 0);
    const int neverTrack = rowLabelled(model, Kind::AsyncTrack, "depth 0", never);
    const auto w2 = TimelineModel::fetchWindow(model.files(), model.rows(), model.beginNs(),
                                               model.endNs(), 1000, {neverTrack});
    REQUIRE(w2.tracks.at(neverTrack).size() == 1);
    CHECK(w2.tracks.at(neverTrack)[0].kind == report::EventKind::Unfinished);
}

TEST_CASE("flow arrows are found from the thread rows of either end") {
    const auto session = importedSession();
    TimelineModel model({session});
    using Kind = TimelineModel::RowKind;
    const int thread1 = rowLabelled(model, Kind::Thread, "thread 1");
    const int thread2 = rowLabelled(model, Kind::Thread, "thread 2");
    REQUIRE(thread1 >= 0);
    REQUIRE(thread2 >= 0);
    const int send = rowLabelled(model, Kind::Track, "depth 0", thread1);
    const int recv = rowLabelled(model, Kind::Track, "depth 0", thread2);
    // "send" [5, 7] us starts the flow at 6 us; "recv" [50, 53] us ends it at 51 us.
    const auto fromSend = model.flowsAt(send, 5'000, 7'000);
    REQUIRE(fromSend.size() == 1);
    CHECK(fromSend[0].fromNs == 6'000);
    CHECK(fromSend[0].toNs == 30'000);
    const auto intoRecv = model.flowsAt(recv, 50'000, 53'000);
    REQUIRE(intoRecv.size() == 1);
    CHECK(intoRecv[0].toNs == 51'000);
    CHECK(model.flowsAt(send, 8'000, 9'000).empty());
    CHECK(model.flowsAt(thread1, 0, 100'000).empty()); // header rows hold no events
}

TEST_CASE("the file's details show what the import repaired") {
    const auto session = importedSession();
    bool sawImport = false, sawUnfinished = false;
    for (const auto& [label, value] : session->details()) {
        if (label == QStringLiteral("Imported from"))
            sawImport = value == QStringLiteral("async-and-flows.json");
        if (label == QStringLiteral("Unfinished B closed"))
            sawUnfinished = value == QStringLiteral("1");
    }
    CHECK(sawImport);
    CHECK(sawUnfinished);
}
