// Opening reports off the UI thread (good, damaged, foreign, cancelled) and the main window's
// report lifecycle: open, switch views, reload keeping the view state, close.
#include "TestReports.hpp"
#include "core/ReportView.hpp"
#include "shell/MainWindow.hpp"
#include "shell/ReportLoader.hpp"
#include "shell/ReportPane.hpp"
#include "summary/SummaryView.hpp"

#include <QDeadlineTimer>
#include <QFile>
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
