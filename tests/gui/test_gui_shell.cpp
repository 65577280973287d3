// Opening reports off the UI thread (good, damaged, foreign, cancelled) and the main window's
// report lifecycle: open, switch views, reload keeping the view state, close.
#include "TestReports.hpp"
#include "core/RecentEntries.hpp"
#include "core/ReportView.hpp"
#include "shell/MainWindow.hpp"
#include "shell/ReportLoader.hpp"
#include "shell/ReportPane.hpp"
#include "summary/SummaryView.hpp"
#include "system/SystemAnalyserView.hpp"
#include "system/SystemAnalyserWindow.hpp"
#include "tilescope/report/HostTraceWriter.hpp"

#include <QAction>
#include <QDeadlineTimer>
#include <QFile>
#include <QFileInfo>
#include <QPointer>
#include <QSettings>
#include <QStandardPaths>
#include <QTest>
#include <catch2/catch.hpp>
#include <fstream>

using namespace tilescope;
using namespace tilescope::gui;
using gui::test::smallReport;

namespace {

/// Loads `argument` with a ReportLoader and returns the error message ("" on success).
QString loadError(const QString& argument) {
    ReportLoader loader;
    QSignalSpy loaded(&loader, &ReportLoader::loaded);
    QSignalSpy failed(&loader, &ReportLoader::failed);
    loader.start(argument);
    REQUIRE(loader.isLoading());
    QDeadlineTimer deadline(20000);
    while (loaded.isEmpty() && failed.isEmpty() && !deadline.hasExpired())
        QTest::qWait(5);
    REQUIRE(loaded.size() + failed.size() == 1);
    REQUIRE_FALSE(loader.isLoading());
    if (!loaded.isEmpty()) {
        auto session = loaded.front().front().value<std::shared_ptr<ReportSession>>();
        REQUIRE(session);
        REQUIRE(session->summary().target.numTiles() == 128);
        return {};
    }
    return failed.front().front().toString();
}

} // namespace

TEST_CASE("ReportLoader opens a report file or folder off the UI thread") {
    REQUIRE(loadError(QString::fromStdString(smallReport().string())).isEmpty());
    REQUIRE(loadError(QString::fromStdString(smallReport().parent_path().string())).isEmpty());
}

TEST_CASE("ReportLoader turns foreign, damaged and missing files into one-line errors") {
    const auto dir = gui::test::scratchDir("bad-files");
    const std::string text = (dir / "notes.txt").string();
    std::ofstream(text) << "this is not a report\nsecond line\n";
    QString error = loadError(QString::fromStdString(text));
    REQUIRE(error.startsWith(QString::fromStdString(text)));
    REQUIRE_FALSE(error.contains('\n'));

    // A report cut in half: the header promises more pages than the file holds.
    const std::string truncated = (dir / "truncated.pop").string();
    {
        std::ifstream in(smallReport(), std::ios::binary);
        std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        std::ofstream(truncated, std::ios::binary)
            .write(bytes.data(), std::streamsize(bytes.size() / 2));
    }
    error = loadError(QString::fromStdString(truncated));
    REQUIRE(error.startsWith(QString::fromStdString(truncated)));

    error = loadError(QString::fromStdString((dir / "missing.pop").string()));
    REQUIRE(error.contains("missing.pop"));
    error = loadError(QString::fromStdString(dir.string()));
    REQUIRE(error.contains("without a profile.pop"));
}

TEST_CASE("ReportLoader cancel drops the load and reports it") {
    ReportLoader loader;
    QSignalSpy loaded(&loader, &ReportLoader::loaded);
    QSignalSpy cancelled(&loader, &ReportLoader::cancelled);
    loader.start(QString::fromStdString(smallReport().string()));
    loader.cancel();
    REQUIRE(cancelled.count() == 1);
    REQUIRE_FALSE(loader.isLoading());
    QTest::qWait(300); // the worker finishes, its result must not surface
    REQUIRE(loaded.isEmpty());
}

TEST_CASE("MainWindow opens a report, keeps view state across reload, and closes it") {
    MainWindow window;
    window.setInteractive(false);
    QSignalSpy opened(&window, &MainWindow::reportOpened);
    window.openReport(QString::fromStdString(smallReport().string()));
    REQUIRE(gui::test::waitFor(opened));
    REQUIRE(window.pane());
    auto* summary = qobject_cast<SummaryView*>(window.pane()->currentView());
    REQUIRE(summary);
    REQUIRE(summary->isReady());

    // Views are made on first use and kept; settings live in the session's state.
    REQUIRE(window.pane()->showView("programs"));
    REQUIRE(window.pane()->showView("nonsense") == nullptr);
    window.pane()->session()->state().selectedTiles = TileSelection::range(5, 9);

    window.reload();
    REQUIRE(opened.wait(20000));
    REQUIRE(window.pane()->session()->state().currentView == "programs");
    REQUIRE(window.pane()->session()->state().selectedTiles.toString() == "5-9");
    REQUIRE(window.pane()->currentView()->metaObject()->className() ==
            QByteArray("tilescope::gui::ProgramTreeView"));

    window.closeReport();
    REQUIRE(window.pane() == nullptr);

    QSignalSpy failed(&window, &MainWindow::openFailed);
    window.openReport(QStringLiteral("/nonexistent/profile.pop"));
    REQUIRE(gui::test::waitFor(failed));
    REQUIRE(failed.front().front().toString().contains("/nonexistent/profile.pop"));
}

TEST_CASE("The recent list is shared: reports, trace sets and comparisons, at most 64") {
    recent::clear();
    // A line written by the version that kept report locations only is a report.
    QSettings().setValue("recentFiles", QStringList{"/old/profile.pop"});
    REQUIRE(recent::entries().size() == 1);
    CHECK(recent::entries().front().kind == RecentEntry::Report);
    CHECK(MainWindow::recentFiles() == QStringList{"/old/profile.pop"});

    recent::add({RecentEntry::Traces, {"/t/a.pvti", "/t/b.pvti", "/t/profile.pop"}});
    recent::add({RecentEntry::Comparison, {"/r/a.pop", "/r/b.pop"}});
    const auto all = recent::entries();
    REQUIRE(all.size() == 3);
    CHECK(all[0].kind == RecentEntry::Comparison); // newest first
    CHECK(all[0].paths == QStringList{"/r/a.pop", "/r/b.pop"});
    CHECK(all[1].kind == RecentEntry::Traces);
    CHECK(all[1].paths.size() == 3);
    CHECK(all[1].label() == "traces: /t/a.pvti + /t/b.pvti + /t/profile.pop");
    CHECK(RecentEntry::decode(all[0].encode()) == all[0]);
    CHECK(recent::entries(RecentEntry::Traces).size() == 1);
    CHECK(MainWindow::recentFiles() == QStringList{"/old/profile.pop"});

    // Opening again moves an entry to the front instead of repeating it.
    recent::add({RecentEntry::Report, {"/old/profile.pop"}});
    CHECK(recent::entries().size() == 3);
    CHECK(recent::entries().front().paths == QStringList{"/old/profile.pop"});

    for (int i = 0; i < 100; ++i)
        recent::add({RecentEntry::Report, {QStringLiteral("/many/%1.pop").arg(i)}});
    CHECK(int(recent::entries().size()) == recent::kMax);
    CHECK(recent::entries().front().paths.front() == "/many/99.pop");
    // A malformed comparison line is skipped, not shown.
    QSettings().setValue("recentFiles", QStringList{"compare\tonly-one.pop", "/ok.pop"});
    CHECK(recent::entries().size() == 1);
    recent::clear();
}

TEST_CASE("The system analyser window reloads its traces and lists recent trace sets") {
    recent::clear();
    const auto dir = test::scratchDir("system-reload");
    const auto trace = dir / "one.pvti";
    {
        report::HostTraceWriter w(trace);
        const auto p = w.addProcess(1, "proc", 1'000'000);
        const auto t = w.addThread(p, 1, "main");
        const auto ch = w.addChannel("user");
        w.addEvent(t, ch, w.intern("work"), 1'000'100, 1'000'900, 0);
        w.close();
    }
    SystemAnalyserWindow window; // interactive: adds to the recent list, no dialog is needed
    QSignalSpy opened(&window, &SystemAnalyserWindow::opened);
    window.openTraces({QString::fromStdString(trace.string())});
    REQUIRE(test::waitFor(opened));
    auto* first = window.view();
    REQUIRE(recent::entries(RecentEntry::Traces).size() == 1);
    CHECK(recent::entries().front().paths ==
          QStringList{QFileInfo(QString::fromStdString(trace.string())).absoluteFilePath()});
    // F5 and Ctrl+R both reload: the same files in a new view.
    QAction* reload = nullptr;
    for (QAction* a : window.findChildren<QAction*>())
        if (a->text() == "&Reload")
            reload = a;
    REQUIRE(reload);
    CHECK(reload->shortcuts().contains(QKeySequence(Qt::Key_F5)));
    CHECK(reload->shortcuts().contains(QKeySequence("Ctrl+R")));
    QPointer<SystemAnalyserView> previous = first;
    opened.clear();
    reload->trigger();
    REQUIRE(test::waitFor(opened));
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    CHECK(previous.isNull()); // a new view replaced the old one
    CHECK(window.paths() == QStringList{QString::fromStdString(trace.string())});
    recent::clear();
}

TEST_CASE("Help › Open Demo Report opens a small generated report") {
    QStandardPaths::setTestModeEnabled(true); // the demo goes to the test cache folder
    MainWindow window;
    window.setInteractive(false);
    QSignalSpy opened(&window, &MainWindow::reportOpened);
    window.openDemo(false);
    REQUIRE(test::waitFor(opened, 60000));
    REQUIRE(window.pane());
    CHECK(window.pane()->session()->target().tilesPerIpu == 64);
    CHECK(window.pane()->session()->summary().runs.size() == 2);
    QStandardPaths::setTestModeEnabled(false);
}
