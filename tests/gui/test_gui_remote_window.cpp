// The remote report in a real window under Xvfb: File > Open Remote, driven as a person would
// (host and path typed, folder listed, Open), then the Summary view (its tables equal those of
// the same file opened locally) and the Memory view with its OpenGL canvas, both grabbed.
#include "RemoteGuiFixture.hpp"
#include "TestReports.hpp"
#include "memory/MemoryView.hpp"
#include "remote/RemoteDirectoryModel.hpp"
#include "remote/RemoteOpenDialog.hpp"
#include "shell/MainWindow.hpp"
#include "shell/ReportPane.hpp"
#include "summary/SummaryModel.hpp"
#include "summary/SummaryView.hpp"
#include "tables/RecordTableModel.hpp"

#include <QComboBox>
#include <QImage>
#include <QLineEdit>
#include <QSet>
#include <QSignalSpy>
#include <QTest>
#include <catch2/catch.hpp>

using namespace tilescope;
using namespace tilescope::gui;
using namespace tilescope::testing;
namespace fs = std::filesystem;

namespace {

QString qs(const fs::path& p) {
    return QString::fromStdString(p.string());
}

int distinctColours(const QImage& image) {
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += 2)
        for (int x = 0; x < image.width(); x += 2)
            colours.insert(image.pixel(x, y));
    return int(colours.size());
}

int pixelsNear(const QImage& image, QRgb rgb) {
    int n = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x) {
            const QRgb p = image.pixel(x, y);
            if (std::abs(qRed(p) - qRed(rgb)) + std::abs(qGreen(p) - qGreen(rgb)) +
                    std::abs(qBlue(p) - qBlue(rgb)) <
                12)
                ++n;
        }
    return n;
}

const QRgb kBlueSeries = qRgb(0x4e, 0x79, 0xa7); // the Memory canvas's total bars

// Every cell of two tables, raw values and text; the target's "Report file" row names where each
// was read from (checked by the caller).
void requireSameTable(RecordTableModel& remote, RecordTableModel& local, const char* name) {
    INFO(name);
    REQUIRE(remote.rowCount() == local.rowCount());
    REQUIRE(remote.columnCount() == local.columnCount());
    for (int row = 0; row < local.rowCount(); ++row)
        for (int column = 0; column < local.columnCount(); ++column) {
            if (local.value(row, 0).toString() == "Report file")
                continue;
            INFO("row " << row << " column " << column);
            CHECK(remote.value(row, column) == local.value(row, column));
            CHECK(remote.data(remote.index(row, column)) == local.data(local.index(row, column)));
        }
}

bool waitReady(ReportView* view) {
    if (view->isReady())
        return true;
    QSignalSpy ready(view, &ReportView::ready);
    return ready.wait(60000);
}

} // namespace

TEST_CASE("Open Remote: the dialog lists the folder, opens the report, Summary and Memory render") {
    RemoteFixture f;
    test::useFixtureSsh(f);
    MainWindow window;
    window.setInteractive(false);
    window.resize(1100, 760);
    window.show();
    REQUIRE(QTest::qWaitForWindowExposed(&window));

    RemoteOpenDialog* dialog = window.showOpenRemoteDialog();
    REQUIRE(QTest::qWaitForWindowExposed(dialog));
    const fs::path folder = fs::canonical(f.small.profile.parent_path());
    dialog->hostField()->setEditText(test::hostSpec(f));
    dialog->pathField()->setText(qs(folder) + "/");
    QSignalSpy listed(&dialog->model(), &RemoteDirectoryModel::listed);
    dialog->browse();
    REQUIRE(test::waitFor(listed, 60000));
    INFO(dialog->statusText().toStdString());
    REQUIRE(dialog->model().rowCount() >= 2);
    const QImage dialogImage = dialog->grab().toImage();
    CHECK(distinctColours(dialogImage) > 8);
    const fs::path shots = test::scratchDir("remote-shots");
    CHECK(dialogImage.save(qs(shots / "remote-dialog.png")));

    QSignalSpy opened(&window, &MainWindow::reportOpened);
    QSignalSpy failed(&window, &MainWindow::openFailed);
    dialog->pathField()->setText(qs(f.small.profile));
    dialog->accept();
    REQUIRE((test::waitFor(opened, 90000) || !failed.isEmpty()));
    INFO((failed.isEmpty() ? QString() : failed.front().front().toString()).toStdString());
    REQUIRE(failed.isEmpty());

    // Summary: the same figures as the local file.
    auto* summary = qobject_cast<SummaryView*>(window.pane()->showView("summary"));
    REQUIRE(summary);
    REQUIRE(waitReady(summary));
    auto local = test::openSession(f.small.profile);
    SummaryView localView(local);
    SummaryModel& r = summary->model();
    SummaryModel& l = localView.model();
    requireSameTable(r.target(), l.target(), "target");
    requireSameTable(r.categories(), l.categories(), "categories");
    requireSameTable(r.regions(), l.regions(), "regions");
    requireSameTable(r.liveness(), l.liveness(), "liveness");
    requireSameTable(r.runs(), l.runs(), "runs");
    requireSameTable(r.engineOptions(), l.engineOptions(), "engine options");
    CHECK(r.categories().rowCount() > 0);
    bool namesUrl = false;
    for (int row = 0; row < r.target().rowCount(); ++row)
        if (r.target().value(row, 0).toString() == "Report file")
            namesUrl = r.target().value(row, 1).toString().toStdString() == f.url(f.small.profile);
    CHECK(namesUrl);
    QTest::qWait(100);
    const QImage summaryImage = window.grab().toImage();
    CHECK(distinctColours(summaryImage) > 20);
    CHECK(summaryImage.save(qs(shots / "remote-summary.png")));

    // Memory: the canvas draws the remote per-tile data.
    ReportView* memory = window.pane()->showView("memory");
    REQUIRE(memory);
    REQUIRE(waitReady(memory));
    QTest::qWait(200);
    const QImage memoryImage = window.grab().toImage();
    CHECK(memoryImage.save(qs(shots / "remote-memory.png")));
    CHECK(distinctColours(memoryImage) > 20);
    CHECK(pixelsNear(memoryImage, kBlueSeries) > 5000);
    report::setDefaultSshOptions({});
}
