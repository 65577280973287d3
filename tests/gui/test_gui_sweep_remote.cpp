// Sweep folders over SSH (issue 35): against tests/remote's real sshd on 127.0.0.1, a sweep
// folder opened as ssh://... gives the same table as opened locally, its variants' reports open
// through the SFTP VFS (what the side-by-side comparison opens), and a missing folder says why.

#include "RemoteGuiFixture.hpp"
#include "TestReports.hpp"
#include "TestSweeps.hpp"
#include "TilescopeProcess.hpp"
#include "remote/RemoteOpenDialog.hpp"
#include "shell/MainWindow.hpp"
#include "sweep/SweepTableModel.hpp"
#include "sweep/SweepView.hpp"
#include "sweep/SweepWindow.hpp"
#include "tilescope/report/ProfileSummary.hpp"
#include "tilescope/report/RemoteDirectory.hpp"
#include "tilescope/report/ReportError.hpp"
#include "tilescope/sweep/RemoteSweep.hpp"
#include "tilescope/sweep/SweepPlan.hpp"
#include "tilescope/sweep/SweepSummary.hpp"
#include "tilescope/sweep/VariantStatus.hpp"

#include <QApplication>
#include <QComboBox>
#include <QImage>
#include <QLineEdit>
#include <QProcessEnvironment>
#include <QSignalSpy>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>

using namespace tilescope;
using namespace tilescope::gui;
namespace fs = std::filesystem;

namespace {

std::string fileText(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

} // namespace

TEST_CASE("a small remote file is read whole, within its size cap") {
    testing::RemoteFixture f;
    test::useFixtureSsh(f);
    const fs::path file = f.world / "note.json";
    testing::writeText(file, std::string(5000, 'x'));
    CHECK(report::readRemoteFile(f.url(file), report::defaultSshOptions(), 5000) == fileText(file));
    try {
        report::readRemoteFile(f.url(file), report::defaultSshOptions(), 4999);
        FAIL("a file over the cap was read");
    } catch (const report::ReportError& e) {
        CHECK(std::string(e.what()).find("5000 bytes") != std::string::npos);
        CHECK(std::string(e.what()).find(f.url(file)) != std::string::npos);
    }
    try {
        report::readRemoteFile(f.url(f.world / "missing.json"), report::defaultSshOptions(), 100);
        FAIL("a missing file was read");
    } catch (const report::ReportError& e) {
        CHECK(std::string(e.what()).find("no such file") != std::string::npos);
        CHECK(std::string(e.what()).find("missing.json") != std::string::npos);
    }
    fs::create_directories(f.world / "sweepless");
    CHECK_THROWS_AS(
        report::readRemoteFile(f.url(f.world / "sweepless"), report::defaultSshOptions(), 1 << 20),
        report::ReportError); // a folder
    report::setDefaultSshOptions({});
}

TEST_CASE("a sweep folder opened over SSH gives the table it gives locally") {
    testing::RemoteFixture f;
    test::useFixtureSsh(f);
    const fs::path dir = test::makeSyntheticSweep(f.world / "sweep", 5, true);
    const auto local = sweep::readSummaryJson(dir);
    REQUIRE(local);
    const std::string url = f.url(dir);

    const sweep::SweepSummary remote =
        sweep::readRemoteSweep(url + "/", report::defaultSshOptions());
    CHECK(remote.directory.string() == url);
    REQUIRE(remote.rows.size() == local->rows.size());
    for (std::size_t i = 0; i < remote.rows.size(); ++i) {
        CHECK(remote.rows[i].name == local->rows[i].name);
        CHECK(remote.rows[i].state == local->rows[i].state);
        CHECK(remote.rows[i].cycles() == local->rows[i].cycles());
        CHECK(remote.rows[i].peakTileMemoryBytes == local->rows[i].peakTileMemoryBytes);
        CHECK(remote.rows[i].fits == local->rows[i].fits);
    }
    CHECK(sweep::summaryJson(remote).size() > 0);

    // A variant's report, as the comparison opens it: URL/<variant>/profile.pop over SFTP.
    const std::string reportUrl =
        (remote.directory / remote.rows[0].name / sweep::kReportFile).string();
    CHECK(reportUrl.rfind(url + "/", 0) == 0);
    const report::ProfileReader reader(reportUrl);
    const report::ProfileReader localReader(
        (dir / remote.rows[0].name / sweep::kReportFile).string());
    CHECK(reader.hasCompilation() == localReader.hasCompilation());
    CHECK(report::summarize(reader).tilesOverCapacity ==
          report::summarize(localReader).tilesOverCapacity);

    // The Sweep window on the URL shows the same rows.
    SweepWindow window;
    QSignalSpy opened(&window, &SweepWindow::sweepOpened);
    QSignalSpy failed(&window, &SweepWindow::openFailed);
    window.openSweep(QString::fromStdString(url));
    REQUIRE(test::waitFor(opened, 60000));
    CHECK(failed.isEmpty());
    CHECK(window.view()->model()->rowCount() == static_cast<int>(local->rows.size()));
    report::setDefaultSshOptions({});
}

TEST_CASE("a remote sweep folder that is missing, or not a sweep, says why") {
    testing::RemoteFixture f;
    test::useFixtureSsh(f);
    const std::string missing = f.url(f.world / "no-such-sweep");
    SweepWindow window;
    QSignalSpy failed(&window, &SweepWindow::openFailed);
    window.openSweep(QString::fromStdString(missing));
    REQUIRE(test::waitFor(failed, 60000));
    const QString message = failed[0][0].toString();
    CHECK(message.contains(QString::fromStdString(missing)));
    CHECK(message.contains("sweep.json"));
    CHECK(message.contains("no such file"));

    // A sweep without its summary.json (still running, or killed) names the file it needs.
    const fs::path unfinished = test::makeSyntheticSweep(f.world / "unfinished", 2, true);
    fs::remove(unfinished / "summary.json");
    try {
        sweep::readRemoteSweep(f.url(unfinished), report::defaultSshOptions());
        FAIL("a sweep without summary.json was read");
    } catch (const sweep::SweepError& e) {
        CHECK(std::string(e.what()).find("summary.json") != std::string::npos);
    }
    report::setDefaultSshOptions({});
}

TEST_CASE("tilescope --sweep ssh://... --screenshot renders the remote sweep") {
    testing::RemoteFixture f;
    const fs::path dir = test::makeSyntheticSweep(f.world / "shown", 4, true);
    const fs::path out = f.world / "remote-sweep.png";
    const fs::path home = f.world / "home";
    fs::create_directories(home);
    QProcessEnvironment env;
    env.insert("HOME", QString::fromStdString(home.string()));
    env.insert("XDG_CONFIG_HOME", QString::fromStdString((home / ".config").string()));
    const auto r = test::runTilescope(
        QStringList{"--sweep", QString::fromStdString(f.url(dir)), "--screenshot",
                    QString::fromStdString(out.string()), "--size", "1000x700", "--ssh-config",
                    QString::fromStdString(f.sshConfig.string()), "--known-hosts",
                    QString::fromStdString(f.knownHosts.string())},
        env);
    INFO(r.stderrText.toStdString());
    REQUIRE(r.exitCode == 0);
    CHECK(QImage(QString::fromStdString(out.string())).size() == QSize(1000, 700));

    // A missing remote folder: a clear error and a non-zero status, no picture.
    const fs::path none = f.world / "none.png";
    const auto missing = test::runTilescope(
        QStringList{"--sweep", QString::fromStdString(f.url(f.world / "gone")), "--screenshot",
                    QString::fromStdString(none.string()), "--ssh-config",
                    QString::fromStdString(f.sshConfig.string()), "--known-hosts",
                    QString::fromStdString(f.knownHosts.string())},
        env);
    CHECK(missing.exitCode != 0);
    CHECK(missing.stderrText.contains("sweep.json"));
    CHECK_FALSE(fs::exists(none));
}

TEST_CASE("File > Open Remote opens a sweep folder picked by its sweep.json") {
    testing::RemoteFixture f;
    test::useFixtureSsh(f);
    const fs::path dir = test::makeSyntheticSweep(f.world / "picked", 3, true);
    MainWindow window;
    RemoteOpenDialog* dialog = window.showOpenRemoteDialog();
    dialog->hostField()->setEditText(test::hostSpec(f));
    dialog->pathField()->setText(QString::fromStdString((dir / "sweep.json").string()));
    dialog->accept();
    SweepWindow* sweepWindow = nullptr;
    for (QWidget* w : QApplication::topLevelWidgets())
        if (auto* s = qobject_cast<SweepWindow*>(w))
            sweepWindow = s;
    REQUIRE(sweepWindow);
    QSignalSpy opened(sweepWindow, &SweepWindow::sweepOpened);
    REQUIRE(test::waitFor(opened, 60000));
    CHECK(sweepWindow->view()->model()->rowCount() == 3);
    CHECK(sweepWindow->windowTitle().contains(QString::fromStdString(f.url(dir))));
    sweepWindow->close();
    report::setDefaultSshOptions({});
}
