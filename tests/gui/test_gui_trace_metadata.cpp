// Tracepoint metadata in the system analyser: the timeline's window carries the pretty-printed
// metadata of the single events it shows (for the tooltip), also in the per-process flame, and
// clicking an event fills the event pane with its details and metadata.
#include "TestReports.hpp"
#include "system/HostTraceSession.hpp"
#include "system/SystemAnalyserView.hpp"
#include "system/TimelineCanvas.hpp"
#include "system/TimelineModel.hpp"
#include "tilescope/report/HostTraceWriter.hpp"

#include <QElapsedTimer>
#include <QTest>
#include <catch2/catch.hpp>

using namespace tilescope;
using namespace tilescope::gui;

namespace {

constexpr std::int64_t B = 1'700'000'000'000'000'000;

/// main: "load" [1000, 5000] with begin and end metadata, "plain" [6000, 7000];
/// worker: "tick" (instant) at 3000 with non-JSON metadata.
std::filesystem::path writeTaggedTrace(const std::string& name) {
    const auto path = test::scratchDir("metadata-" + name) / "tagged.pvti";
    report::HostTraceWriter w(path);
    const auto p = w.addProcess(7, "proc", B);
    const auto main = w.addThread(p, 1, "main");
    const auto worker = w.addThread(p, 2, "worker");
    const auto ch = w.addChannel("user");
    const report::EventMetadata begin{"json", R"({"batch":32,"files":["a","b"]})"};
    const report::EventMetadata end{"json", R"({"bytes":4096})"};
    const report::EventMetadata note{"text", "warm cache"};
    w.addEvent(main, ch, w.intern("load"), B + 1000, B + 5000, 0, &begin, &end);
    w.addEvent(main, ch, w.intern("plain"), B + 6000, B + 7000, 0);
    w.addInstant(worker, ch, w.intern("tick"), B + 3000, 0, &note);
    w.close();
    return path;
}

int trackOf(const TimelineModel& m, std::int64_t threadId) {
    for (int i = 0; i < int(m.rows().size()); ++i) {
        const auto& r = m.rows()[std::size_t(i)];
        if (r.kind == TimelineModel::RowKind::Track && r.threadId == threadId && r.depth == 0)
            return i;
    }
    return -1;
}

const char* kLoadText = "{\n  \"batch\": 32,\n  \"files\": [\n    \"a\",\n    \"b\"\n  ]\n}\n"
                        "At the end:\n{\n  \"bytes\": 4096\n}";

/// Processes events until `done` holds or `ms` pass; whether it held.
template <class F> bool eventually(F done, int ms = 10000) {
    QElapsedTimer timer;
    timer.start();
    while (!done() && timer.elapsed() < ms)
        QTest::qWait(10);
    return done();
}

} // namespace

TEST_CASE("Timeline windows carry the metadata of the single events they show") {
    const auto files = std::vector{HostTraceSession::open(writeTaggedTrace("window").string())};
    REQUIRE(files[0]->hasMetadata());
    TimelineModel m(files);
    const int main = trackOf(m, 1), worker = trackOf(m, 2);
    REQUIRE(main >= 0);
    REQUIRE(worker >= 0);
    const auto w = TimelineModel::fetchWindow(files, m.rows(), B, B + 8000, 800, {main, worker});
    REQUIRE(w.tracks.at(main).size() == 2);
    const auto& load = w.tracks.at(main)[0];
    const auto& plain = w.tracks.at(main)[1];
    REQUIRE(w.metadata.count(main) == 1);
    CHECK(w.metadata.at(main).at(load.eventId) == kLoadText);
    CHECK(w.metadata.at(main).count(plain.eventId) == 0);
    const auto& tick = w.tracks.at(worker).at(0);
    CHECK(w.metadata.at(worker).at(tick.eventId) == "warm cache");
    CHECK(files[0]->metadataText(load.eventId) == kLoadText);
    CHECK(files[0]->metadataText(plain.eventId).isEmpty());

    // Threads merged into one flame per process keep their events' metadata.
    m.setFlameMode(TimelineModel::FlameMode::PerProcess);
    const int merged = trackOf(m, TimelineModel::kAllThreads);
    REQUIRE(merged >= 0);
    const auto v = TimelineModel::fetchWindow(files, m.rows(), B, B + 8000, 800, {merged});
    REQUIRE(v.metadata.count(merged) == 1);
    CHECK(v.metadata.at(merged).size() == 2);
}

TEST_CASE("Clicking an event shows its details and metadata in the event pane") {
    SystemAnalyserView view({HostTraceSession::open(writeTaggedTrace("pane").string())});
    const int main = trackOf(view.timelineModel(), 1);
    const auto w = TimelineModel::fetchWindow(
        view.timelineModel().files(), view.timelineModel().rows(), B, B + 8000, 800, {main});
    const auto load = w.tracks.at(main).at(0);
    const auto plain = w.tracks.at(main).at(1);
    view.canvas().selectEvent(main, load.startNs, load.endNs, load.eventId, load.nameId);
    REQUIRE(eventually([&] { return view.eventDetailsText().contains("Tracepoint metadata"); }));
    const QString text = view.eventDetailsText();
    CHECK(text.startsWith("load\n"));
    CHECK(text.contains("Duration: 4"));
    CHECK(text.contains(kLoadText));
    view.canvas().selectEvent(main, plain.startNs, plain.endNs, plain.eventId, plain.nameId);
    REQUIRE(eventually([&] { return view.eventDetailsText().contains("No tracepoint metadata"); }));
    CHECK(view.eventDetailsText().startsWith("plain\n"));
}
