// The System Analyser's Compare view of two host traces: its table (TraceComparisonModel) equals
// per-name counts, totals and means computed here independently from each trace's events, with
// names only one trace has marked added or removed; the view and the window's comparisons of
// traces in the shared recent list.
#include "TestReports.hpp"
#include "core/RecentEntries.hpp"
#include "system/HostTraceSession.hpp"
#include "system/SystemAnalyserWindow.hpp"
#include "system/TraceCompareView.hpp"
#include "system/TraceComparisonModel.hpp"
#include "tilescope/report/HostTraceReader.hpp"
#include "tilescope/report/HostTraceWriter.hpp"

#include <QFileInfo>
#include <QSignalSpy>
#include <catch2/catch.hpp>
#include <cmath>
#include <map>
#include <random>
#include <set>

using namespace tilescope;
using namespace tilescope::gui;

namespace {

constexpr std::int64_t B = 1'700'000'000'000'000'000;

/// Two threads of nested events whose names, durations and counts come from `seed`; `names`
/// picks which of "parse", "load", "step", "save", "sync" appear. Instants ("mark") and an
/// unfinished event ("hang") count but add no time.
std::filesystem::path writeTrace(const std::string& name, unsigned seed,
                                 std::vector<std::string> names) {
    const auto path = test::scratchDir("trace-compare-" + name) / (name + ".pvti");
    report::HostTraceWriter w(path);
    const auto p = w.addProcess(1, "proc", B);
    const auto ch = w.addChannel("user");
    std::mt19937 random(seed);
    std::vector<std::int64_t> ids;
    for (const auto& n : names)
        ids.push_back(w.intern(n));
    for (int thread = 0; thread < 2; ++thread) {
        const auto t = w.addThread(p, 10 + thread, "thread");
        std::int64_t at = B;
        for (int i = 0; i < 300; ++i) {
            const std::int64_t outer = 1000 + std::int64_t(random() % 5000);
            const auto inner = outer / 3;
            w.addEvent(t, ch, ids[random() % ids.size()], at + 10, at + 10 + inner, 1);
            w.addEvent(t, ch, ids[random() % ids.size()], at, at + outer, 0);
            if (i % 50 == 0)
                w.addInstant(t, ch, w.intern("mark"), at + 5, 1);
            at += outer + 100;
        }
        if (thread == 1)
            w.addUnfinished(t, ch, w.intern("hang"), at, 0);
    }
    w.close();
    return path;
}

struct Figures {
    std::uint64_t count = 0, timed = 0;
    std::int64_t totalNs = 0;
};

/// Per-name figures from every event of every track, read event by event.
std::map<QString, Figures> perName(const std::filesystem::path& file) {
    report::HostTraceReader r(file.string());
    std::map<QString, Figures> out;
    for (const auto& t : r.threads())
        for (std::int32_t d = 0; d <= r.maxDepth(t.id); ++d)
            for (const auto& e : r.events(t.id, d, std::numeric_limits<std::int64_t>::min(),
                                          std::numeric_limits<std::int64_t>::max(), 1'000'000)) {
                auto& f = out[QString::fromStdString(r.name(e.nameId))];
                ++f.count;
                if (e.kind == report::EventKind::Complete) {
                    ++f.timed;
                    f.totalNs += *e.endNs - e.startNs;
                }
            }
    return out;
}

double mean(const Figures& f) {
    return f.timed ? double(f.totalNs) / double(f.timed) : 0.0;
}

} // namespace

TEST_CASE("The trace comparison equals per-name totals computed from each trace's events") {
    const auto a = writeTrace("a", 1, {"parse", "load", "step", "save"});
    const auto b = writeTrace("b", 2, {"load", "step", "save", "sync"});
    TraceComparisonModel model(HostTraceSession::open(a.string()),
                               HostTraceSession::open(b.string()));
    QSignalSpy loaded(&model, &TraceComparisonModel::loaded);
    model.compute();
    REQUIRE(test::waitFor(loaded));
    REQUIRE(model.isLoaded());

    const auto inA = perName(a), inB = perName(b);
    std::set<QString> names;
    for (const auto& [n, f] : inA)
        names.insert(n);
    for (const auto& [n, f] : inB)
        names.insert(n);
    REQUIRE(model.rowCount() == int(names.size()));
    using C = TraceComparisonModel;
    std::set<QString> seen;
    for (int row = 0; row < model.rowCount(); ++row) {
        const QString name = model.value(row, C::Name).toString();
        INFO(name.toStdString());
        seen.insert(name);
        const Figures fa = inA.count(name) ? inA.at(name) : Figures{};
        const Figures fb = inB.count(name) ? inB.at(name) : Figures{};
        CHECK(model.value(row, C::Status).toString() == (!inA.count(name)   ? "added"
                                                         : !inB.count(name) ? "removed"
                                                                            : "matched"));
        CHECK(model.value(row, C::CountA).toULongLong() == fa.count);
        CHECK(model.value(row, C::CountB).toULongLong() == fb.count);
        CHECK(model.value(row, C::CountChange).toLongLong() ==
              std::int64_t(fb.count) - std::int64_t(fa.count));
        CHECK(model.value(row, C::TotalA).toDouble() == double(fa.totalNs));
        CHECK(model.value(row, C::TotalB).toDouble() == double(fb.totalNs));
        CHECK(model.value(row, C::TotalChange).toDouble() == double(fb.totalNs - fa.totalNs));
        if (fa.totalNs > 0)
            CHECK(model.value(row, C::TotalPercent).toDouble() ==
                  Approx(double(fb.totalNs - fa.totalNs) / double(fa.totalNs) * 100.0));
        else
            CHECK_FALSE(model.value(row, C::TotalPercent).isValid()); // no ratio: an empty cell
        CHECK(model.value(row, C::MeanA).toDouble() == Approx(mean(fa)));
        CHECK(model.value(row, C::MeanB).toDouble() == Approx(mean(fb)));
        CHECK(model.value(row, C::MeanChange).toDouble() == Approx(mean(fb) - mean(fa)));
        if (fa.timed > 0 && fb.timed > 0)
            CHECK(model.value(row, C::MeanPercent).toDouble() ==
                  Approx((mean(fb) - mean(fa)) / mean(fa) * 100.0));
    }
    CHECK(seen == names);
    // Largest change of total time first; a percentage is shown where A has time.
    for (int row = 1; row < model.rowCount(); ++row)
        CHECK(std::abs(model.value(row - 1, C::TotalChange).toDouble()) >=
              std::abs(model.value(row, C::TotalChange).toDouble()));
    for (int row = 0; row < model.rowCount(); ++row)
        if (model.value(row, C::TotalA).toDouble() > 0)
            CHECK(model.data(model.index(row, C::TotalPercent)).toString().endsWith("%"));
    // Instants and the unfinished event count, without time.
    CHECK(inA.at("mark").timed == 0);
    CHECK(inB.at("hang").count == 1);
}

TEST_CASE("The system analyser window compares two traces and remembers the comparison") {
    recent::clear();
    const auto a = writeTrace("window-a", 3, {"load", "step"});
    const auto b = writeTrace("window-b", 4, {"load", "step", "sync"});
    SystemAnalyserWindow window;
    QSignalSpy opened(&window, &SystemAnalyserWindow::opened);
    window.compareTraces(QString::fromStdString(a.string()), QString::fromStdString(b.string()));
    REQUIRE(test::waitFor(opened));
    REQUIRE(window.compareView());
    CHECK_FALSE(window.view());
    QSignalSpy compared(&window.compareView()->comparison(), &TraceComparisonModel::loaded);
    if (!window.compareView()->comparison().isLoaded())
        REQUIRE(test::waitFor(compared));
    // load, step, mark and hang in both, sync only in B.
    CHECK(window.compareView()->comparison().rowCount() == 5);
    const auto entries = recent::entries(RecentEntry::TraceComparison);
    REQUIRE(entries.size() == 1);
    CHECK(entries[0].paths ==
          QStringList{QFileInfo(QString::fromStdString(a.string())).absoluteFilePath(),
                      QFileInfo(QString::fromStdString(b.string())).absoluteFilePath()});
    CHECK(entries[0].label().startsWith("compare traces: "));
    CHECK(RecentEntry::decode(entries[0].encode()) == entries[0]);

    // Reload compares the same two files again; a file that is not a trace is refused.
    opened.clear();
    window.reload();
    REQUIRE(test::waitFor(opened));
    REQUIRE(window.compareView());
    window.setInteractive(false);
    QSignalSpy failed(&window, &SystemAnalyserWindow::openFailed);
    window.compareTraces("report.pop", QString::fromStdString(b.string()));
    REQUIRE(failed.size() == 1);
    CHECK(failed[0][0].toString().contains("report.pop"));
    recent::clear();
}
